package io.seqlink.channel.consumer;

import io.seqlink.channel.FrameBatchHandler;

/**
 * A {@link FrameBatchHandler}'s delivery: one call per landed round with its frames (those the host ring still
 * holds), retried as a whole; after the last attempt each frame goes to the dead-letter hook in order.
 */
final class HostBatchDelivery extends HostDelivery {

    private final FrameBatchHandler handler;
    private final BatchCall call = new BatchCall();

    HostBatchDelivery(DeliveryContext ctx, HostFrames frames, FrameBatchHandler handler) {
        super(ctx, frames);
        this.handler = handler;
    }

    @Override
    public Object listener() {
        return handler;
    }

    @Override
    public long deliver(Round r, boolean mayWait) {
        HostRing ring = ring();
        Attempts attempts = ctx.attempts();
        Subscription sub = r.subscription;
        boolean resuming = attempts.resumes(sub, r.from);
        HostRing.FrameList batch = ring.batch;
        batch.size = 0; // rebuilt when the delivery resumes: nothing rewrites the host ring before the round ends
        long missed = 0;
        long padding = 0;
        for (long s = r.validFrom; s <= r.to; s++) {
            HostRing.HostFrame f = ring.frame(s, 1);
            if (f == null) {
                missed++;
            } else if (f.padding) {
                padding++; // a claim given back: acknowledged with the batch, in no batch
            } else {
                batch.frames[batch.size++] = f;
            }
        }
        if (missed > 0 && !resuming) {
            ctx.counters().add(PortCounters.C_MISSED, missed);
        }
        if (batch.size == 0) {
            ctx.counters().add(PortCounters.C_PADDING, padding);
            return finish(r, r.to);
        }
        int outcome = attempts.run(sub, r.from, r.to, call, mayWait);
        if (outcome == Attempts.HANDLED) {
            ctx.counters().add(PortCounters.C_DELIVERED, batch.size);
            ctx.counters().add(PortCounters.C_PADDING, padding);
            ctx.latency().recordRound(r.validFrom, r.to, ring);
            return finish(r, r.to);
        }
        if (outcome == Attempts.RESUME_ELSEWHERE) {
            return RESUME_ELSEWHERE;
        }
        if (outcome != Attempts.EXHAUSTED) {
            return finish(r, r.from - 1); // stopped or removed: nothing handled, the round comes again
        }
        Exception cause = attempts.exhaustedBy();
        for (int i = 0; i < batch.size; i++) {
            HostRing.HostFrame f = batch.frames[i];
            if (attempts.deadLetter(sub, f.rewind(attempts.maxAttempts()), cause) != Attempts.DEAD_LETTERED) {
                ctx.counters().add(PortCounters.C_PADDING, ctx.producer().paddingIn(r.validFrom, f.sequence - 1));
                return finish(r, f.sequence - 1);
            }
        }
        ctx.counters().add(PortCounters.C_PADDING, padding);
        return finish(r, r.to);
    }

    /** The call the attempts repeat: the listener on the whole batch, every frame rewound for the attempt. */
    private final class BatchCall implements Attempts.Call {
        @Override
        public void call(int attempt) throws Exception {
            HostRing.FrameList batch = ring().batch;
            for (int i = 0; i < batch.size; i++) {
                batch.frames[i].rewind(attempt);
            }
            handler.onBatch(batch);
        }
    }
}

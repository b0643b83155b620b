package io.seqlink.channel.consumer;

import io.seqlink.channel.FrameHandler;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A {@link FrameHandler}'s delivery: one call per frame of the landed round, each with its own attempts. */
final class HostFrameDelivery extends HostDelivery {

    private final FrameHandler handler;
    private final FrameCall call = new FrameCall();

    HostFrameDelivery(DeliveryContext ctx, HostFrames frames, FrameHandler handler) {
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
        long start = attempts.resumesAt(sub, r.validFrom, r.to);
        long handled = start - 1;
        long delivered = 0;
        long missed = 0;
        long padding = 0;
        int outcome = Attempts.HANDLED;
        for (long s = start; s <= r.to; s++) {
            HostRing.HostFrame f = ring.frame(s, 1);
            if (f == null) { // overwritten while staged (latest delivery): skipped
                missed++;
                handled = s;
                continue;
            }
            if (f.padding) { // a claim given back: acknowledged with the round, handed to nobody
                padding++;
                handled = s;
                continue;
            }
            if (!frames.mayCall(r.from, s)) { // a seat taken back: the round ends before this frame's call
                break;
            }
            call.frame = f;
            outcome = attempts.run(sub, s, s, call, mayWait);
            if (outcome == Attempts.EXHAUSTED) {
                outcome = attempts.deadLetter(sub, f.rewind(attempts.maxAttempts()), attempts.exhaustedBy());
            }
            if (outcome != Attempts.HANDLED && outcome != Attempts.DEAD_LETTERED) {
                break;
            }
            if (outcome == Attempts.HANDLED) {
                delivered++;
            }
            handled = s;
        }
        ctx.counters().add(PortCounters.C_DELIVERED, delivered);
        if (missed > 0) {
            ctx.counters().add(PortCounters.C_MISSED, missed);
        }
        if (padding > 0) {
            ctx.counters().add(PortCounters.C_PADDING, padding);
        }
        ctx.latency().recordRound(start, handled, ring);
        return outcome == Attempts.RESUME_ELSEWHERE ? RESUME_ELSEWHERE : finish(r, handled);
    }

    /** The call the attempts repeat: the listener on the frame, rewound for each attempt. */
    private final class FrameCall implements Attempts.Call {
        HostRing.@Nullable HostFrame frame;

        @Override
        public void call(int attempt) throws Exception {
            handler.onFrame(Objects.requireNonNull(frame).rewind(attempt));
        }
    }
}

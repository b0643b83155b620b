package io.seqlink.channel.consumer;

import io.seqlink.layout.ConsumerBlock;

/**
 * The delivery of a host listener: a round's frames are staged into the pinned host ring by the consumer's stream
 * (consume step, copy to host, a stream write of {@code host_round}), the poller delivers once that word lands, and
 * the ack is a stream write of what the listener handled. An idle port keeps its next round armed: the same steps
 * behind the wait on the frame's doorbell. Subclasses own the retry loop over the landed frames.
 */
abstract sealed class HostDelivery implements ListenerDelivery permits HostFrameDelivery, HostBatchDelivery {

    final DeliveryContext ctx;

    HostDelivery(DeliveryContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public boolean arms(boolean delegated) {
        return ctx.armedRounds(); // nothing of the listener runs as the round is armed: a delegated one may be armed too
    }

    @Override
    public boolean launch(Round r) {
        stageSteps(r);
        return false;
    }

    @Override
    public boolean arm(Round r) {
        stageSteps(r);
        return true;
    }

    private void stageSteps(Round r) {
        ConsumerSteps steps = ctx.steps();
        steps.consume(r);
        steps.stageToHost(r.from, r.to);
        steps.signalHostRound(r.number);
    }

    @Override
    public boolean landed(Round r) {
        return ctx.steps().hostRoundLanded(r.number);
    }

    @Override
    public int land(Round r, boolean released) {
        ConsumerSteps steps = ctx.steps();
        long readyTo = steps.mirrorWord(ConsumerBlock.READY_TO);
        if (r.armed && readyTo < r.from) { // released, or woken before its frame came: it comes by an ordinary round
            ctx.counters().increment(released ? PortCounters.C_ARMED_RELEASED : PortCounters.C_ARMED_EARLY_WAKES);
            return EMPTY;
        }
        long validFrom = Math.max(r.from, steps.mirrorWord(ConsumerBlock.VALID_FROM));
        if (validFrom > r.from) {
            ctx.counters().add(PortCounters.C_MISSED, validFrom - r.from);
        }
        r.to = readyTo;
        r.validFrom = validFrom;
        return DELIVER;
    }

    /** Acknowledges what the round handled (a stream write after the copy the listener read) and counts it handled. */
    final long finish(Round r, long handled) {
        if (handled >= r.from) {
            ctx.steps().acknowledge(handled);
        }
        ctx.handled(handled);
        return handled;
    }
}

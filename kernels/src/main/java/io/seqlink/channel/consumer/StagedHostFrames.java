package io.seqlink.channel.consumer;

import io.seqlink.layout.ConsumerBlock;

/**
 * A host listener's frames staged by the consumer's stream: the consume step, the copy to the pinned host ring and a
 * stream write of {@code host_round} (or, for a host-memory replica read in place, the consume step's own release of
 * the mirror's {@code round}); the poller delivers once that word lands, and the ack is a stream write after the
 * copy the listener read. An idle port keeps its next round armed: the same steps behind the wait on the frame's
 * doorbell. Serves every host listener of a port whose frames the producer does not push to the host.
 */
final class StagedHostFrames implements HostFrames {

    private final DeliveryContext ctx;

    StagedHostFrames(DeliveryContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public HostRing ring() {
        return ctx.steps().hostRing();
    }

    @Override
    public boolean arms() {
        return ctx.armedRounds(); // nothing of the listener runs as the round is armed: a delegated one may be armed too
    }

    @Override
    public long published(ProducerView producer) {
        return producer.publishedOnDevice();
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
            return ListenerDelivery.EMPTY;
        }
        long validFrom = Math.max(r.from, steps.mirrorWord(ConsumerBlock.VALID_FROM));
        if (validFrom > r.from) {
            ctx.counters().add(PortCounters.C_MISSED, validFrom - r.from);
        }
        r.to = readyTo;
        r.validFrom = validFrom;
        return ListenerDelivery.DELIVER;
    }

    /** Always: the frames are staged into this port's own host ring. */
    @Override
    public boolean mayCall(long from, long sequence) {
        return true;
    }

    @Override
    public void acknowledge(long sequence) {
        ctx.steps().acknowledge(sequence);
    }
}

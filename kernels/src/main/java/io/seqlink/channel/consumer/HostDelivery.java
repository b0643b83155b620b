package io.seqlink.channel.consumer;

/**
 * The delivery of a host listener: its frames come from its {@link HostFrames} (staged by the consumer's stream, or
 * pushed to the host by the producer), which says what a round of them is on the device, when it has landed and how
 * it is acknowledged; subclasses own the retry loop over the landed frames, read from {@link #ring()}.
 */
abstract sealed class HostDelivery implements ListenerDelivery permits HostFrameDelivery, HostBatchDelivery {

    final DeliveryContext ctx;
    final HostFrames frames;

    HostDelivery(DeliveryContext ctx, HostFrames frames) {
        this.ctx = ctx;
        this.frames = frames;
    }

    /** The host ring the round's frames are read from. */
    final HostRing ring() {
        return frames.ring();
    }

    @Override
    public boolean arms(boolean delegated) {
        return frames.arms();
    }

    @Override
    public long published(ProducerView producer) {
        return frames.published(producer);
    }

    @Override
    public boolean launch(Round r) {
        return frames.launch(r);
    }

    @Override
    public boolean arm(Round r) {
        return frames.arm(r);
    }

    @Override
    public boolean landed(Round r) {
        return frames.landed(r);
    }

    @Override
    public int land(Round r, boolean released) {
        return frames.land(r, released);
    }

    /** Acknowledges what the round handled (after the listener's reads of it) and counts it handled. */
    final long finish(Round r, long handled) {
        if (handled >= r.from) {
            frames.acknowledge(handled);
        }
        ctx.handled(handled);
        return handled;
    }
}

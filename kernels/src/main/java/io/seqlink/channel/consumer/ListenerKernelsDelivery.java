package io.seqlink.channel.consumer;

import io.seqlink.channel.DeviceFrameHandler;

/** A device listener's kernels between the channel's consume step and its ack step: the default ending. */
final class ListenerKernelsDelivery extends DeviceDelivery {

    ListenerKernelsDelivery(DeliveryContext ctx, DeviceFrameHandler handler) {
        super(ctx, handler, ctx.steps().frameRing);
    }

    @Override
    void acknowledgeDelivered(long to) {
        ctx.steps().acknowledge(to);
    }

    /** The ack of what the consume step took, read on the device: the frame's arrival is not known as it is armed. */
    @Override
    void acknowledgeArmed() {
        ctx.steps().acknowledgeTaken();
    }
}

package io.seqlink.channel.consumer;

import io.seqlink.channel.DeviceFrameHandler;

/**
 * A device listener whose round's last kernel acknowledges ({@link DeviceFrameHandler#acknowledgesInKernel}): the
 * channel enqueues its consume step and no ack step after the listener's work. A round the listener did not complete
 * (dead-lettered) is still acknowledged by the channel.
 */
final class KernelAckDelivery extends DeviceDelivery {

    KernelAckDelivery(DeliveryContext ctx, DeviceFrameHandler handler) {
        super(ctx, handler, ctx.steps().frameRing);
    }

    @Override
    void acknowledgeDelivered(long to) {
        // the listener's last kernel acknowledges the round
    }

    @Override
    void acknowledgeArmed() {
        // the listener's last kernel acknowledges what the round took
    }
}

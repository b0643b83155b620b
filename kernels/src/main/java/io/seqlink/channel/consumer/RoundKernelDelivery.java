package io.seqlink.channel.consumer;

import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.layout.ConsumerBlock;

/**
 * A device listener whose one kernel is the whole round ({@link DeviceFrameHandler#consumesInKernel}): it takes the
 * frames with its own acquire read, reads them where they are (so {@code DeviceFrames.memory()} is the source ring,
 * whatever the read mode) and acknowledges them; the channel enqueues neither a consume step nor an ack step. The
 * channel's consume step comes back only where that kernel is missing: after an armed call that threw (so the armed
 * round lands), and before a dead letter (it fills the frame ring the host copy stages from).
 */
final class RoundKernelDelivery extends DeviceDelivery {

    RoundKernelDelivery(DeliveryContext ctx, DeviceFrameHandler handler) {
        super(ctx, handler, ctx.steps().sourceRing);
    }

    @Override
    void consumeStep(Round r) {
        // the listener's kernel is the round
    }

    @Override
    void acknowledgeDelivered(long to) {
        // its kernel acknowledged what it took
    }

    @Override
    void acknowledgeArmed() {
        // its kernel acknowledges what it takes
    }

    @Override
    void landFailedArmedCall(Round r) {
        ctx.steps().consumeArmed(r.from, r.to, r.number); // the round is cancelled next: it lands taking nothing
    }

    /**
     * The round kernel a failed armed call enqueued before throwing took and acknowledged the frame: the mirror's
     * acknowledgement (released before the round word the poller acquired) reached it, which nothing else writes for
     * this frame. The frame is then delivered (the kernel ran on it and freed its slot), never retried.
     */
    @Override
    boolean takenByFailedArmedCall(Round r) {
        if (ctx.steps().mirrorWord(ConsumerBlock.CONSUMED_SEQ) < r.from) {
            return false;
        }
        ctx.attempts().forget(r.subscription, r.from);
        return true;
    }

    @Override
    void beforeDeadLetter(Round r) {
        ctx.steps().consume(r.from, r.to, r.number);
    }
}

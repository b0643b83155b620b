package io.seqlink.channel.consumer;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.ControlBlock;

/**
 * The replica in pinned, mapped host memory that the producer's publish step pushes every frame of the channel into
 * for one consumer whose listener is a host listener: a control block whose {@code publish_seq} the publish tail
 * stores after the frames' copies (fence, then the store: the release of {@code seqlink_device.cuh}), and a ring of
 * the channel's geometry, read in place by the host listener after an acquire load of that word. Bound as the channel
 * opens, before the producer's publish step is (its push targets are fixed there), so it holds every frame from the
 * first. Where the link's source is in mapped host memory already it is used as it is, and nothing is pushed: a
 * {@code HOST_STAGED} consumer's own replica, or the producer's ring itself when the channel keeps it in host memory
 * (every consumer a host listener; its {@code publish_seq} is then the producer's host mirror). Any other source gets
 * a replica of its own, pushed into besides whatever its link reads.
 *
 * <p>Immutable once made; {@link #published} is safe from any thread that holds the port's memory.
 */
final class HostPush {

    private final MappedBuffer control;
    final HostRing ring;

    private HostPush(MappedBuffer control, HostRing ring) {
        this.control = control;
        this.ring = ring;
    }

    /**
     * The host replica of the consumer {@code setup} describes: the link's {@code source} when it is one (both its
     * control block and its ring in mapped host memory), else one allocated through {@code setup} and added to its push
     * targets.
     */
    static HostPush attach(ConsumerLink.Setup setup, ConsumerLink.Source source, String channel, int maxBatch) {
        MappedBuffer control;
        MappedBuffer ring;
        if (source.control() instanceof MappedBuffer c && source.ring() instanceof MappedBuffer r) {
            control = c;
            ring = r;
        } else {
            control = setup.track(setup.consumer().allocateMapped(ControlBlock.BYTES));
            ring = setup.track(setup.consumer().allocateMapped(setup.geometry().ringBytes()));
            setup.pushTargets().add(new PublishBinding.PushTarget(control, ring));
        }
        return new HostPush(control, new HostRing(ring, false, setup.geometry(), channel, setup.consumer().ordinal(), maxBatch));
    }

    /** The replica's {@code publish_seq}, by an acquire load: every frame up to it is in {@link #ring}, stamped. */
    long published() {
        return control.getAcquire(ControlBlock.PUBLISH_SEQ);
    }
}

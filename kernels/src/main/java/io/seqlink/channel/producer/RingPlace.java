package io.seqlink.channel.producer;

import io.seqlink.backend.Device;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import java.util.List;
import java.util.Objects;

/**
 * Where a channel's ring lives and where its consumers acquire {@code publish_seq}: the one decision
 * {@link ProducerTransport} takes its memory from. The channel makes it once, as it opens, from its consumers' links
 * and its share; nothing else tests it.
 *
 * <ul>
 *   <li>{@link #DEVICE}: the ring in the producer device's memory, consumers acquire its control block; frames the host
 *       commits are copied from the staging ring, and push consumers get copies from the publish step.</li>
 *   <li>{@link #HOST}: every consumer reads on the host, in this process: the ring in pinned, mapped host memory of
 *       the producer device, consumers acquire the producer's host mirror; frames are written once, in place.</li>
 *   <li>{@link #sharedRegion}: as {@code HOST}, in memory another owner mapped for the producer device (the shared
 *       region of a channel shared with other processes): the region's ring is the ring and the region's control
 *       block the host mirror, so the consumer processes read the very slots the producer writes.</li>
 * </ul>
 *
 * Immutable; safe from any thread.
 */
public sealed interface RingPlace {

    /** The ring in device memory (the default). */
    RingPlace DEVICE = new OnDevice();

    /** The ring in pinned, mapped host memory the producer's transport allocates. */
    RingPlace HOST = new InPinnedHost();

    /**
     * The ring in {@code ring} and the host mirror in {@code control}, memory mapped for the producer device whose owner
     * frees it after the channel's streams are closed: {@code control} of {@link ControlBlock#BYTES}, {@code ring} of the
     * channel's {@link RingGeometry#ringBytes()}.
     */
    static RingPlace sharedRegion(MappedBuffer control, MappedBuffer ring) {
        return new InSharedRegion(control, ring);
    }

    /** Whether the ring is in host memory, written in place by the host and by the producer's kernels. */
    boolean inHost();

    /** Where the ring is, in words, for the channel's log line. */
    String describe();

    /**
     * The channel's ring, allocated on {@code producer} and added to {@code resources} where this place allocates it.
     * Called once, by the channel's opening thread.
     */
    Memory ring(Device producer, RingGeometry geometry, List<AutoCloseable> resources);

    /**
     * The host mirror of {@code publish_seq} (control block layout): pinned memory of the producer device, added to
     * {@code resources}, unless the place holds one. Called once, by the same thread.
     */
    default MappedBuffer mirror(Device producer, List<AutoCloseable> resources) {
        return ProducerTransport.track(resources, producer.allocateMapped(ControlBlock.BYTES));
    }

    /** See {@link #DEVICE}. */
    record OnDevice() implements RingPlace {
        @Override
        public String describe() {
            return "device memory";
        }

        @Override
        public boolean inHost() {
            return false;
        }

        @Override
        public Memory ring(Device producer, RingGeometry geometry, List<AutoCloseable> resources) {
            return ProducerTransport.track(resources, producer.allocate(geometry.ringBytes()));
        }
    }

    /** See {@link #HOST}. */
    record InPinnedHost() implements RingPlace {
        @Override
        public String describe() {
            return "pinned host memory";
        }

        @Override
        public boolean inHost() {
            return true;
        }

        @Override
        public Memory ring(Device producer, RingGeometry geometry, List<AutoCloseable> resources) {
            return ProducerTransport.track(resources, producer.allocateMapped(geometry.ringBytes()));
        }
    }

    /** See {@link #sharedRegion}: nothing is allocated, nothing is added to the resources (the region's owner frees it). */
    record InSharedRegion(MappedBuffer control, MappedBuffer ring) implements RingPlace {
        public InSharedRegion {
            Objects.requireNonNull(control, "control");
            Objects.requireNonNull(ring, "ring");
            if (control.bytes() < ControlBlock.BYTES) {
                throw new IllegalArgumentException("control must hold a control block (" + ControlBlock.BYTES + " bytes), has "
                        + control.bytes());
            }
        }

        @Override
        public String describe() {
            return "the shared region";
        }

        @Override
        public boolean inHost() {
            return true;
        }

        @Override
        public Memory ring(Device producer, RingGeometry geometry, List<AutoCloseable> resources) {
            if (ring.bytes() < geometry.ringBytes()) {
                throw new IllegalArgumentException("the shared ring has " + ring.bytes() + " bytes where the channel's ring needs "
                        + geometry.ringBytes());
            }
            return ring;
        }

        @Override
        public MappedBuffer mirror(Device producer, List<AutoCloseable> resources) {
            return control;
        }
    }
}

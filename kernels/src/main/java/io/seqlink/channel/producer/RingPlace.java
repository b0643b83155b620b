package io.seqlink.channel.producer;

import io.seqlink.backend.Device;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.Transport;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a channel's ring lives and where its consumers acquire {@code publish_seq}: the one decision
 * {@link ProducerTransport} takes its memory from. {@link #decide} takes it, from the consumers' links and the share:
 * the channel as it opens, and its footprint before anything is allocated; nothing else tests it.
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

    /** Which of the places {@link #decide} picks, before there is memory to place the ring in. */
    enum Kind {
        /** {@link RingPlace#DEVICE}. */
        DEVICE,
        /** {@link RingPlace#HOST}. */
        PINNED_HOST,
        /** {@link RingPlace#sharedRegion}. */
        SHARED_REGION;

        /** Whether the ring is in host memory ({@link RingPlace#inHost()}). */
        public boolean inHost() {
            return this != DEVICE;
        }
    }

    /**
     * Where the ring of {@code spec} lives with its consumers' {@code transports}: in host memory when every consumer of
     * this process reads on the host ({@link #readsOnlyOnHost}): the shared region when the channel is shared (its
     * consumer processes read the region's slots and acquire its control block; this process may have no consumer),
     * else pinned memory of the producer device when it has consumers. Otherwise in device memory, and a shared
     * channel's publish step pushes every frame into the region. Any thread.
     */
    static Kind decide(ChannelSpec spec, Map<Integer, Transport> transports) {
        if (!readsOnlyOnHost(spec, transports)) {
            return Kind.DEVICE;
        }
        if (spec.share() != null) {
            return Kind.SHARED_REGION;
        }
        return spec.consumers().isEmpty() ? Kind.DEVICE : Kind.PINNED_HOST;
    }

    /**
     * Whether every consumer of the channel in this process reads on the host (true when it has none): a host listener
     * the producer would push to ({@link ChannelSpec#pushesToHost}) over a link that reads the producer's own memory (same
     * device, peer atomic: no replica of its own). Then the ring can live in host memory: the producer's kernels write
     * each frame once, where the listeners read it in place, and the publish step pushes nothing, where a ring in device
     * memory costs the publish step a copy of every frame into host memory.
     */
    private static boolean readsOnlyOnHost(ChannelSpec spec, Map<Integer, Transport> transports) {
        for (int device : spec.consumers()) {
            Transport t = transports.get(device);
            if (!spec.pushesToHost(device) || (t != Transport.SAME_DEVICE && t != Transport.PEER_ATOMIC)) {
                return false;
            }
        }
        return true;
    }

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

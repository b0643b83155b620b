package io.seqlink.channel.consumer;

import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.Transport;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a consumer reaches its channel's control block and ring over one transport: the consume step is the same
 * code for every transport (it reads "a control block and a ring"); only where those two live differs, and what
 * the link sets up to get them there (peer access, a replica the producer pushes into). A transport is one
 * implementation registered in {@link #of}; nothing else in the consumer asks which transport it has.
 */
interface ConsumerLink {

    /** The control block the consume step acquires {@code publish_seq} from and the ring that holds the frames. */
    record Source(Memory control, Memory ring) {
    }

    /**
     * What a link may use to set itself up; {@code startsAfter} is the sequence the consumer starts after (0 for a
     * channel's own consumer; an attached channel's start, as its seat shows it), which its own host mirror holds as its
     * {@code consumed_seq} from the start.
     */
    record Setup(Backend backend, int producer, Device consumer, RingGeometry geometry, Memory producerControl,
            Memory producerRing, List<PublishBinding.PushTarget> pushTargets, List<AutoCloseable> allocations,
            long startsAfter) {

        <T extends AutoCloseable> T track(T resource) {
            synchronized (allocations) {
                allocations.add(resource);
            }
            return resource;
        }
    }

    Transport transport();

    /**
     * Why this link cannot serve {@code producer -> consumer} on {@code backend} (what the driver does not allow), or
     * {@code null} when it can. Asked before a channel forced onto this transport allocates anything.
     */
    @Nullable String problem(Backend backend, int producer, int consumer);

    /** Sets the link up (allocations are tracked in {@code setup}) and returns what the consume step reads. */
    Source attach(Setup setup);

    /** The link of {@code transport}; {@link IllegalArgumentException} for {@code AUTO}, which the runtime resolves first. */
    static ConsumerLink of(Transport transport) {
        ConsumerLink link = Registry.LINKS.get(transport);
        if (link == null) {
            throw new IllegalArgumentException("transport " + transport + " is not a concrete transport; the runtime picks one "
                    + "from the topology report");
        }
        return link;
    }

    /** The registered links, one per concrete transport. */
    final class Registry {
        private static final Map<Transport, ConsumerLink> LINKS = new EnumMap<>(Transport.class);

        static {
            for (ConsumerLink l : List.of(new PeerAtomicLink(), new SameDeviceLink(), new PeerCopyLink(), new HostStagedLink(),
                    new SharedMemoryLink())) {
                LINKS.put(l.transport(), l);
            }
        }

        private Registry() {
        }
    }

    /** Reads the producer's own control block and ring over the link, with native peer atomics (the fast path). */
    final class PeerAtomicLink implements ConsumerLink {
        @Override
        public Transport transport() {
            return Transport.PEER_ATOMIC;
        }

        @Override
        public @Nullable String problem(Backend backend, int producer, int consumer) {
            return producer == consumer || backend.linkAttributes(consumer, producer).accessSupported() ? null
                    : "transport peer-atomic needs device " + consumer + " to address device " + producer
                    + "'s memory, which the driver does not allow";
        }

        @Override
        public Source attach(Setup s) {
            s.backend().enablePeerAccess(s.consumer().ordinal(), s.producer());
            return new Source(s.producerControl(), s.producerRing());
        }
    }

    /** Reads the producer's control block and ring on the same device (another stream of one GPU). */
    final class SameDeviceLink implements ConsumerLink {
        @Override
        public Transport transport() {
            return Transport.SAME_DEVICE;
        }

        @Override
        public @Nullable String problem(Backend backend, int producer, int consumer) {
            return producer == consumer ? null : "transport same-device needs consumer " + consumer + " on device " + producer;
        }

        @Override
        public Source attach(Setup s) {
            return new Source(s.producerControl(), s.producerRing());
        }
    }

    /** Reads a replica on its own device that the producer pushes into by peer copy (peer access without atomics). */
    final class PeerCopyLink implements ConsumerLink {
        @Override
        public Transport transport() {
            return Transport.PEER_COPY;
        }

        @Override
        public @Nullable String problem(Backend backend, int producer, int consumer) {
            return producer == consumer || backend.linkAttributes(producer, consumer).accessSupported() ? null
                    : "transport peer-copy needs device " + producer + " to write device " + consumer
                    + "'s memory, which the driver does not allow";
        }

        @Override
        public Source attach(Setup s) {
            s.backend().enablePeerAccess(s.producer(), s.consumer().ordinal());
            return replica(s, s.track(s.consumer().allocate(io.seqlink.layout.ControlBlock.BYTES)),
                    s.track(s.consumer().allocate(s.geometry().ringBytes())));
        }
    }

    /** Reads a replica in pinned host memory that the producer pushes into by DMA (no peer path: the fallback). */
    final class HostStagedLink implements ConsumerLink {
        @Override
        public Transport transport() {
            return Transport.HOST_STAGED;
        }

        @Override
        public @Nullable String problem(Backend backend, int producer, int consumer) {
            return null; // pinned host memory every device reaches: the fallback serves every link
        }

        @Override
        public Source attach(Setup s) {
            return replica(s, s.track(s.consumer().allocateMapped(io.seqlink.layout.ControlBlock.BYTES)),
                    s.track(s.consumer().allocateMapped(s.geometry().ringBytes())));
        }
    }

    /**
     * Reads the replica in a region shared with the producer's process (its control block and ring, which that
     * process's publish step pushes into), mapped into this process before the port is made; the producer needs nothing
     * set up here. Only an attached channel's port has this link: a channel cannot be forced onto it.
     */
    final class SharedMemoryLink implements ConsumerLink {
        @Override
        public Transport transport() {
            return Transport.SHARED_MEMORY;
        }

        @Override
        public @Nullable String problem(Backend backend, int producer, int consumer) {
            return "transport shared-memory is the transport of a channel attached from another process "
                    + "(SeqlinkRuntime.attachChannel); to reach consumers in other processes, share the channel "
                    + "(ChannelSpec.Builder.share) and leave its transport alone";
        }

        @Override
        public Source attach(Setup s) {
            return new Source(s.producerControl(), s.producerRing());
        }
    }

    private static Source replica(Setup s, Memory control, Memory ring) {
        s.pushTargets().add(new PublishBinding.PushTarget(control, ring));
        return new Source(control, ring);
    }
}

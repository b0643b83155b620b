package io.seqlink.channel;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.Transport;
import java.util.List;

/**
 * One consumer's memory and device work, bound to its transport: its stream, its block and the block's
 * host mirror, the ring it reads frames from, the bound consume and ack steps, and (for host
 * listeners) the pinned host ring.
 *
 * <pre>
 *   consumer device                              host (pinned, mapped)
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   | block: cursor +  | | local ring       |    | mirror of block  | | host ring (listeners   |
 *   | descriptor       | | (copy mode)      |    | + host_round     | | read frames here)      |
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   push transports add a replica control block and ring (device: PEER_COPY; host: HOST_STAGED)
 * </pre>
 *
 * <p>Stream work is enqueued by the thread that runs the port's round (its poller), or by its listener
 * while the poller waits for the round: never by two at once.
 */
final class ConsumerTransport {

    private final RingGeometry geometry;
    private final Device device;
    private final String channel;
    private final int maxBatch;
    private final List<AutoCloseable> resources;
    final DeviceStream stream;
    final DeviceBuffer block;
    final MappedBuffer mirror;
    /** The ring the frames are published to for this consumer: the producer's (pull) or its replica (push). */
    final Memory sourceRing;
    /** Where the frames are for this consumer: its local ring (copy mode) or the source ring (direct mode). */
    final Memory frameRing;
    /**
     * The mirror word that says a host round landed, fixed by where the frames are: {@code host_round}, written
     * after the copy to a staged host ring, or the consume step's {@code round} when the host ring is the frame
     * ring itself (HOST_STAGED direct).
     */
    private final int hostLandedWord;
    final ConsumeKernel consume;
    final AckKernel ack;
    private volatile HostRing hostRing;

    /** Allocates everything, adding each resource to {@code resources} (the channel frees them). */
    ConsumerTransport(Backend backend, ChannelSpec spec, Memory producerControl, Memory producerRing, int consumer,
            Transport transport, List<PublishBinding.PushTarget> pushTargets, List<AutoCloseable> resources) {
        this.geometry = spec.geometry();
        this.channel = spec.name();
        this.maxBatch = spec.maxPublishBatch();
        this.resources = resources;
        int producer = spec.producer();
        this.device = backend.device(consumer);
        this.stream = track(device.newStream(spec.name() + "-consumer-" + consumer));
        this.block = track(device.allocate(ConsumerBlock.BYTES));
        this.mirror = track(device.allocateMapped(ConsumerBlock.BYTES));
        Memory sourceControl;
        Memory sourceRing;
        switch (transport) {
            case PEER_ATOMIC -> {
                backend.enablePeerAccess(consumer, producer);
                sourceControl = producerControl;
                sourceRing = producerRing;
            }
            case SAME_DEVICE -> {
                sourceControl = producerControl;
                sourceRing = producerRing;
            }
            case PEER_COPY -> {
                backend.enablePeerAccess(producer, consumer);
                sourceControl = track(device.allocate(ControlBlock.BYTES));
                sourceRing = track(device.allocate(geometry.ringBytes()));
                pushTargets.add(new PublishBinding.PushTarget(sourceControl, sourceRing));
            }
            case HOST_STAGED -> {
                sourceControl = track(device.allocateMapped(ControlBlock.BYTES));
                sourceRing = track(device.allocateMapped(geometry.ringBytes()));
                pushTargets.add(new PublishBinding.PushTarget(sourceControl, sourceRing));
            }
            default -> throw new IllegalArgumentException("transport " + transport + " cannot serve consumer " + consumer);
        }
        Memory localRing = spec.readMode() == ReadMode.COPY ? track(device.allocate(geometry.ringBytes())) : null;
        this.sourceRing = sourceRing;
        this.frameRing = localRing != null ? localRing : sourceRing;
        this.hostLandedWord = frameRing instanceof MappedBuffer ? ConsumerBlock.ROUND : ConsumerBlock.HOST_ROUND;
        this.consume = stream.bindConsume(new ConsumeBinding(sourceControl, sourceRing, geometry, spec.maxPublishBatch(), localRing,
                block, mirror, spec.delivery() == Delivery.LATEST));
        this.ack = stream.bindAck(new AckBinding(block, mirror));
    }

    private <T extends AutoCloseable> T track(T resource) {
        synchronized (resources) {
            resources.add(resource);
        }
        return resource;
    }

    /** The pinned host ring, allocated on first need (a subscription of a host listener, or a dead-lettered device round). */
    HostRing hostRing() {
        HostRing h = hostRing;
        if (h != null) {
            return h;
        }
        synchronized (this) {
            if (hostRing == null) {
                if (frameRing instanceof MappedBuffer mapped) {
                    hostRing = new HostRing(mapped, false, geometry, channel, device.ordinal(), maxBatch); // HOST_STAGED in place
                } else {
                    hostRing = new HostRing(track(device.allocateMapped(geometry.ringBytes())), true, geometry, channel,
                            device.ordinal(), maxBatch);
                }
            }
            return hostRing;
        }
    }

    /** Queues the copy of {@code from..to}'s slots from the frame ring to the host ring (in at most two runs) when it is staged. */
    void stageToHost(HostRing host, long from, long to) {
        if (!host.staged) {
            return;
        }
        int slots = geometry.slots();
        long count = Math.min(to - from + 1, slots);
        int first = geometry.slotOf(to - count + 1);
        long run = Math.min(count, slots - first);
        stream.copy(frameRing, first * geometry.stride(), host.memory, first * geometry.stride(), run * geometry.stride());
        if (run < count) {
            stream.copy(frameRing, 0, host.memory, 0, (count - run) * geometry.stride());
        }
    }

    /**
     * After the round's work on the stream, tells the host that round {@code round} reached host memory:
     * a stream-ordered write of {@code host_round} after the copy to the host ring. A host ring read in
     * place (HOST_STAGED direct) needs none: the consume step's release store of the mirror's
     * {@code round}, after its acquire read of the replica, already says so inside the PTX model.
     */
    void signalHostRound(long round) {
        if (hostLandedWord == ConsumerBlock.HOST_ROUND) {
            stream.writeValue(mirror, ConsumerBlock.HOST_ROUND, round);
        }
    }

    boolean hostRoundLanded(long round) {
        return mirror.getAcquire(hostLandedWord) >= round;
    }

    /** Whether consume step {@code round} ran: its release of the mirror's {@code round}, after the descriptor. */
    boolean consumeLanded(long round) {
        return mirror.getAcquire(ConsumerBlock.ROUND) >= round;
    }

    /** A word of the host mirror; the caller keeps the memory alive. */
    long mirrorWord(int offset) {
        return mirror.getAcquire(offset);
    }

    /** The mirror's words, for when the channel frees it. */
    long[] mirrorWords() {
        long[] words = new long[ConsumerBlock.BYTES >>> 3];
        for (int i = 0; i < words.length; i++) {
            words[i] = mirror.getAcquire((long) i << 3);
        }
        return words;
    }
}

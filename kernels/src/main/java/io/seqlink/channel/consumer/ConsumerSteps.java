package io.seqlink.channel.consumer;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.RingGeometry;
import org.jspecify.annotations.Nullable;

/**
 * One consumer's memory and its bound device steps: its stream, its block and the block's host mirror, the ring it
 * reads frames from, the consume and ack steps, and (for host listeners, or a device round's dead letters) the
 * pinned host ring.
 *
 * <pre>
 *   consumer device                              host (pinned, mapped)
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   | block: cursor +  | | local ring       |    | mirror of block  | | host ring (listeners   |
 *   | descriptor       | | (copy mode)      |    | + host_round     | | read frames here)      |
 *   +------------------+ +------------------+    +------------------+ +------------------------+
 *   the source (control block + ring the consume step reads) is the link's: the producer's, or a replica
 * </pre>
 *
 * <p>Stream work is enqueued by the thread that runs the port's round (its poller), or by the listener thread while
 * the poller keeps off the round: never by two at once. The mirror's words are read from any thread, by a caller
 * that holds the port's memory (its guard), or from the copy kept once the channel freed it ({@link #freeze}).
 */
final class ConsumerSteps {

    private final RingGeometry geometry;
    private final Device device;
    private final String channel;
    private final int maxBatch;
    private final ConsumerLink.Setup setup;
    final DeviceStream stream;
    final DeviceBuffer block;
    final MappedBuffer mirror;
    /** The ring the consume step reads: the producer's, or the link's replica. */
    final Memory sourceRing;
    /** Where the frames are for this consumer once consumed: its local ring (copy mode) or the source ring (direct). */
    final Memory frameRing;
    /**
     * The mirror word that says a host round landed, fixed by where the frames are: {@code host_round}, written after
     * the copy to a staged host ring, or the consume step's {@code round} when the host ring is the frame ring itself
     * (a host-memory replica read in place).
     */
    private final int hostLandedWord;
    final ConsumeKernel consume;
    private final AckKernel ack;
    /** The host replica the producer pushes this consumer's frames into for a host listener; {@code null}: none. */
    final @Nullable HostPush hostPush;
    private volatile @Nullable HostRing hostRing;
    /** The mirror's words, kept when the channel frees the mirror; {@code null} while it is open. */
    private volatile long @Nullable [] frozen;

    /**
     * Allocates everything through {@code setup} (the channel frees it) and binds the steps over the link's source;
     * {@code pushToHost}: with a {@link HostPush} replica the producer's publish step pushes into.
     */
    ConsumerSteps(ConsumerLink link, ConsumerLink.Setup setup, String channel, boolean copyMode, boolean lapping, int maxBatch,
            boolean pushToHost) {
        this.geometry = setup.geometry();
        this.channel = channel;
        this.maxBatch = maxBatch;
        this.setup = setup;
        this.device = setup.consumer();
        this.stream = setup.track(device.newStream(channel + "-consumer-" + device.ordinal()));
        this.block = setup.track(device.allocate(ConsumerBlock.BYTES));
        this.mirror = setup.track(device.allocateMapped(ConsumerBlock.BYTES));
        if (setup.startsAfter() != 0) {
            mirror.setRelease(ConsumerBlock.CONSUMED_SEQ, setup.startsAfter()); // before any step is bound to it
        }
        ConsumerLink.Source source = link.attach(setup);
        this.hostPush = pushToHost ? HostPush.attach(setup, source, channel, maxBatch) : null;
        this.sourceRing = source.ring();
        Memory localRing = copyMode ? setup.track(device.allocate(geometry.ringBytes())) : null;
        this.frameRing = localRing != null ? localRing : sourceRing;
        this.hostLandedWord = frameRing instanceof MappedBuffer ? ConsumerBlock.ROUND : ConsumerBlock.HOST_ROUND;
        this.consume = stream.bindConsume(new ConsumeBinding(source.control(), sourceRing, geometry, maxBatch, localRing, block,
                mirror, lapping));
        this.ack = stream.bindAck(new AckBinding(block, mirror));
    }

    /** The pinned host ring, allocated on first need (a host listener's subscription, or a device round's dead letters). */
    HostRing hostRing() {
        HostRing h = hostRing;
        if (h != null) {
            return h;
        }
        synchronized (this) {
            h = hostRing;
            if (h == null) {
                h = frameRing instanceof MappedBuffer mapped
                        ? new HostRing(mapped, false, geometry, channel, device.ordinal(), maxBatch) // a host replica, in place
                        : new HostRing(setup.track(device.allocateMapped(geometry.ringBytes())), true, geometry, channel,
                                device.ordinal(), maxBatch);
                hostRing = h;
            }
            return h;
        }
    }

    /** Enqueues the consume step of ordinary round {@code round} over {@code from..to}, frames seen published. */
    void consume(long from, long to, long round) {
        consume.enqueue(from, to, round);
    }

    /**
     * Enqueues the consume step of armed round {@code round} over {@code from..to}, behind the wait on its doorbell:
     * it may end short of {@code to}, and takes nothing once the host cancelled the round ({@code ARM_CANCEL}).
     */
    void consumeArmed(long from, long to, long round) {
        consume.enqueueArmed(from, to, round);
    }

    /** The consume step of round {@code r}, armed or ordinary. */
    void consume(Round r) {
        if (r.armed) {
            consumeArmed(r.from, r.to, r.number);
        } else {
            consume(r.from, r.to, r.number);
        }
    }

    /** Queues the copy of {@code from..to}'s slots from the frame ring to the host ring (in at most two runs) when it is staged. */
    void stageToHost(long from, long to) {
        HostRing host = hostRing();
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
     * After the round's work on the stream, tells the host that round {@code round} reached host memory: a
     * stream-ordered write of {@code host_round} after the copy to the host ring. A host ring read in place needs none:
     * the consume step's release store of the mirror's {@code round}, after its acquire read of the replica, says so.
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

    /** Enqueues the acknowledgement of every frame up to {@code sequence}, after the stream's earlier work. */
    void acknowledge(long sequence) {
        ack.enqueue(sequence);
    }

    /**
     * Acknowledges every frame up to {@code sequence} from the host: a release store of the mirror's
     * {@code consumed_seq}, after the calling thread's reads of those frames. Only while no stream-written ack of this
     * consumer is still queued (it could land after this store and move the word back).
     */
    void acknowledgeFromHost(long sequence) {
        mirror.setRelease(ConsumerBlock.CONSUMED_SEQ, sequence);
    }

    /** Enqueues the acknowledgement of what the consume step before it took (an armed round's, known only on the device). */
    void acknowledgeTaken() {
        ack.enqueueTaken();
    }

    /** A word of the host mirror (its final value once frozen); the caller holds the port's memory. */
    long mirrorWord(int offset) {
        long[] f = frozen;
        return f != null ? f[offset >>> 3] : mirror.getAcquire(offset);
    }

    /** Keeps the mirror's words: the channel is about to free the mirror. The caller holds the port's memory. */
    void freeze() {
        if (frozen == null) {
            long[] words = new long[ConsumerBlock.BYTES >>> 3];
            for (int i = 0; i < words.length; i++) {
                words[i] = mirror.getAcquire((long) i << 3);
            }
            frozen = words;
        }
    }
}

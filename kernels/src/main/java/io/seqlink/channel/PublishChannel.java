package io.seqlink.channel;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A lock-free publish/consume channel from one producer device to one or more consumer devices.
 *
 * <h2>Producer</h2>
 * One thread at a time produces (like the Disruptor's single-producer sequencer: no CAS on the hot
 * path). A frame is claimed, written, committed, then published; publishing several committed frames
 * at once costs one release add:
 * <pre>{@code
 * long seq = channel.tryClaim();                 // > 0: the sequence; < 0: a ClaimStatus
 * if (seq > 0) {
 *     channel.buffer().putLong(42L);             // host write into the slot's pinned staging...
 *     channel.commit(8);                         // ...copied to the device on the producer stream
 *     channel.publish();                         // one release add of publish_seq
 * }
 * }</pre>
 * A producer kernel can instead write the slot at {@link #devicePointer()} on {@link #producerStream()}
 * and {@link #commitDevice(int)}. {@link #offer(ByteBuffer)} does all steps for one frame.
 *
 * <h2>Consumers</h2>
 * Each consumer device has a {@link ConsumerPort}: subscribe a listener and let the launcher poll it,
 * or poll it yourself. Nothing here allocates per frame.
 */
public interface PublishChannel extends AutoCloseable {

    String name();

    ChannelSpec spec();

    ChannelState state();

    /** Why the channel failed, or {@code null}. */
    @Nullable Throwable failure();

    // ---- producer ---------------------------------------------------------------------------

    /**
     * Claims the next slot without waiting. Returns the claimed sequence ({@code > 0}) or a negative
     * {@link ClaimStatus}: {@code BACK_PRESSURED}, {@code CLAIM_OPEN}, {@code BATCH_FULL},
     * {@code CLOSED}, {@code FAILED}.
     */
    long tryClaim();

    /** {@link #tryClaim()}, waiting up to the channel's backpressure timeout for a free slot. */
    long claim();

    /** {@link #tryClaim()}, waiting up to {@code timeout} for a free slot; the last status if none came. */
    long claim(long timeout, TimeUnit unit);

    /**
     * The claimed slot's host staging buffer: position 0, limit the slot size, little-endian. Valid
     * until {@link #commit(int)}. Throws {@link IllegalStateException} when no frame is claimed.
     */
    ByteBuffer buffer();

    /** Device address of the claimed slot's payload on the producer device, for a producer kernel. */
    long devicePointer();

    /** Memory of the producer's ring, with {@link #payloadOffset(long)}, for a producer kernel. */
    Memory ring();

    /** Offset of {@code sequence}'s payload in {@link #ring()}. */
    long payloadOffset(long sequence);

    /** The producer's stream: work enqueued here runs before the next publish. */
    DeviceStream producerStream();

    /**
     * Ends the claimed frame written through {@link #buffer()}: {@code length} bytes are copied to the
     * device on the producer stream. Throws {@link IllegalArgumentException} for a length outside
     * 0..slot size and {@link IllegalStateException} when no frame is claimed; neither changes anything.
     */
    void commit(int length);

    /** Ends the claimed frame that a kernel on {@link #producerStream()} wrote at {@link #devicePointer()}. */
    void commitDevice(int length);

    /**
     * Publishes every committed, unpublished frame with one release add; returns how many. Throws
     * {@link IllegalStateException} when nothing is committed.
     */
    int publish();

    /**
     * Claims, copies {@code src}'s remaining bytes, commits and publishes one frame without waiting.
     * Returns the sequence or a negative {@link ClaimStatus}; {@code src}'s position is unchanged.
     */
    long offer(ByteBuffer src);

    /** {@link #offer(ByteBuffer)} for a byte range. */
    long offer(byte[] src, int offset, int length);

    // ---- consumers --------------------------------------------------------------------------

    List<Integer> consumerDevices();

    /** The port of consumer {@code device}; {@link IllegalArgumentException} naming the consumers if there is none. */
    ConsumerPort consumer(int device);

    ChannelSnapshot snapshot();

    // ---- life -------------------------------------------------------------------------------

    /**
     * Stops new claims and waits up to {@code timeout} for every live consumer to acknowledge what
     * was published (the launcher must be running to consume it), then closes. Reports what was left.
     */
    DrainReport drainAndClose(Duration timeout);

    /** {@link #drainAndClose(Duration)} with the channel's stall timeout. */
    @Override
    void close();
}

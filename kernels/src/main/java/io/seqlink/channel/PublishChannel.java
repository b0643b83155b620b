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
 * Any number of threads may produce at once (like the Disruptor's multi-producer sequencer: a CAS on
 * the claim cursor). A frame is claimed, written, committed, then published; a claim belongs to the
 * thread that made it, and each thread holds at most one uncommitted claim. Publishing takes every
 * committed frame in sequence order, whichever thread committed it, up to the first one still being
 * written, with one release add:
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
 * {@link #abandon()} gives a claim back instead of committing it (Aeron's {@code BufferClaim.abort()}):
 * sequences stay contiguous, so its sequence is published as padding, which consumers acknowledge and
 * no listener sees. A claim whose thread dies before its commit is given back on its behalf by the next
 * producer call that publishes, or by the close, so the frames other threads produce go on.
 *
 * <p>Statuses are about the calling thread's own frames: {@code BATCH_FULL} tells a thread that frames
 * it committed wait for its {@code publish()}; a thread whose way is blocked only by other threads'
 * frames in flight gets {@code BACK_PRESSURED} (retry), never {@code BATCH_FULL}.
 *
 * <h2>Consumers</h2>
 * Each consumer device has a {@link ConsumerPort}: subscribe a listener and let the launcher poll it,
 * or poll it yourself. Nothing here allocates per frame.
 *
 * <table>
 * <caption>Threading contract</caption>
 * <tr><th>method</th><th>who may call it</th></tr>
 * <tr><td>{@link #tryClaim}, {@link #claim()}, {@link #claim(long, TimeUnit)}, {@link #offer}, {@link #publish}</td>
 *     <td>any number of threads at once</td></tr>
 * <tr><td>{@link #buffer}, {@link #devicePointer}, {@link #context}, {@link #commit}, {@link #commitDevice}</td><td>the thread holding the
 *     claim; any other gets {@link IllegalStateException} naming the rule</td></tr>
 * <tr><td>{@link #abandon}</td><td>any thread: it gives back the calling thread's claim, and does nothing (returns
 *     {@code false}) on a thread that holds none</td></tr>
 * <tr><td>{@link #drainAndClose}, {@link #close}</td><td>any thread, one of the channel's own listeners too
 *     (it does not wait for that listener's frame)</td></tr>
 * <tr><td>everything else</td><td>any thread</td></tr>
 * </table>
 */
public interface PublishChannel extends AutoCloseable {

    String name();

    ChannelSpec spec();

    ChannelState state();

    /** Why the channel failed, or {@code null}. */
    @Nullable Throwable failure();

    // ---- producer ---------------------------------------------------------------------------

    /**
     * Claims the next slot for the calling thread without waiting. Returns the claimed sequence
     * ({@code > 0}) or a negative {@link ClaimStatus}: {@code BACK_PRESSURED} (no free slot, or other
     * threads' frames in flight fill the {@code max-publish-batch} window: the call helped publish what
     * they committed and tried again a few times), {@code CLAIM_OPEN} (this thread holds an uncommitted
     * claim), {@code BATCH_FULL} (the window is full and frames this thread committed wait in it for its
     * {@link #publish()}), {@code CLOSED}, {@code FAILED}. A call that returns {@code BACK_PRESSURED}
     * counts once in the channel's back-pressure count. A claim keeps the channel's memory until its
     * commit or {@link #abandon()}: a close waits for it (up to the close's timeout) and frees nothing
     * under the writer; a claim whose thread died is given back by the next producer call that publishes,
     * or by the close.
     */
    long tryClaim();

    /** {@link #tryClaim()}, waiting up to the channel's backpressure timeout while it would return {@code BACK_PRESSURED}. */
    long claim();

    /**
     * {@link #tryClaim()}, waiting up to {@code timeout} while it would return {@code BACK_PRESSURED}
     * (no free slot, or other threads' frames fill the window); the last status if no slot came. Returns
     * at once when the thread is interrupted, with the flag kept. A call that waited counts once, and its
     * waiting time is added to the channel's back-pressure wait.
     */
    long claim(long timeout, TimeUnit unit);

    /**
     * The claimed slot's host staging buffer (the ring's slot itself where the ring is in host memory, see
     * {@link #devicePointer()}): position 0, limit the slot size, little-endian. Valid until {@link #commit(int)}.
     * Throws {@link IllegalStateException} when no frame is claimed.
     */
    ByteBuffer buffer();

    /**
     * Device address of the claimed slot's payload, as the producer device addresses it, for a producer kernel. The ring
     * is in the producer's device memory, or in host memory the device maps when every consumer of the channel in this
     * process is a host listener: pinned memory, or, for a channel shared with other processes, the shared region (the
     * kernel then writes each frame once, where the listeners read it).
     */
    long devicePointer();

    /**
     * Memory of the producer's ring, with {@link #payloadOffset(long)}, for a producer kernel: device memory of the
     * producer, or host memory it maps (see {@link #devicePointer()}).
     */
    Memory ring();

    /** Offset of {@code sequence}'s payload in {@link #ring()}. */
    long payloadOffset(long sequence);

    /** The producer's stream: work enqueued here runs before the next publish. */
    DeviceStream producerStream();

    /**
     * Ends the claimed frame written through {@link #buffer()}: {@code length} bytes are copied to the
     * device on the producer stream. Throws {@link IllegalArgumentException} for a length outside
     * 0..slot size and {@link IllegalStateException} when no frame is claimed; neither changes anything.
     * On a channel that no longer takes frames (closed, draining, failed) it throws
     * {@link IllegalStateException} and the claim ends: its frame is counted unpublished.
     */
    void commit(int length);

    /**
     * Sets the trace context the claimed frame carries in its header (not its payload) to the consumers' listeners,
     * who read it with {@link Frame#context(FrameContext)}; {@code context} is copied, so the caller may reuse it at
     * once. An absent context (or none set) leaves the frame without one. Call it before {@link #commit(int)} or
     * {@link #commitDevice(int)}; the thread holding the claim only ({@link IllegalStateException} otherwise, or when
     * no frame is claimed). Allocates nothing. A frame published without a context costs nothing for it.
     */
    void context(FrameContext context);

    /** Ends the claimed frame that a kernel on {@link #producerStream()} wrote at {@link #devicePointer()}. */
    void commitDevice(int length);

    /**
     * Gives back the calling thread's open claim instead of committing it, for a frame it will not
     * send (a failed write, an exception between claim and commit): the claim ends and its memory hold
     * with it, and its sequence is published as padding, together with whatever was committed before and
     * behind it (other threads' frames committed behind this claim waited for it). Consumers acknowledge
     * padding and never deliver it: no listener sees it, it is not dead-lettered, and the snapshots count
     * it ({@link ChannelSnapshot#claimsAbandoned()}, {@link ConsumerSnapshot#paddingSkipped()}). A device
     * listener's kernel skips it with {@code seqlink::device::abandoned}. On a draining channel the claim
     * ends the same way and the drain publishes the padding with the frames committed before it; on a
     * closed or failed one nothing is published. The {@link DrainReport} counts padding neither
     * delivered, undelivered nor unpublished. Returns
     * {@code false}, changing nothing, when the thread holds no claim, so a {@code finally} block may call
     * it after a commit.
     */
    boolean abandon();

    /**
     * Publishes every committed, unpublished frame (of any thread), in sequence order, up to the first
     * frame still being written, with one release add per batch; returns how many this call published:
     * 0 when nothing is committed, or when another thread's publish is taking the frames (it takes this
     * thread's too). Frames committed before a drain began are published by the drain: a call made
     * while it drains waits until the drain has published this thread's committed frames (at most the
     * drain's timeout) and returns 0, as does a call made after it. On a failed channel, or a closed one
     * that still holds frames this thread committed unpublished (a close that gave up on them, counted
     * {@code unpublished} in its report), it throws {@link IllegalStateException}; so does a call
     * interrupted while it waits (the flag is kept; the report accounts for the frames).
     */
    int publish();

    /**
     * Claims, copies {@code src}'s remaining bytes, commits and publishes one frame without waiting, from
     * any thread. Returns the sequence or a negative {@link ClaimStatus}: {@code BACK_PRESSURED} (no free
     * slot, or frames in flight fill the window: the call helped publish what was committed and tried
     * again a few times; retry), {@code CLAIM_OPEN} only when this thread holds a claim of its own,
     * {@code CLOSED}, {@code FAILED}; never {@code BATCH_FULL} (it publishes what it commits).
     * {@code src}'s position is unchanged. A sequence returned is either delivered or counted in the
     * {@link DrainReport} when the channel closes.
     */
    long offer(ByteBuffer src);

    /**
     * {@link #offer(ByteBuffer)} of a frame carrying {@code context} in its header (see {@link #context(FrameContext)});
     * any thread; {@code context} is read during the call only.
     */
    long offer(ByteBuffer src, FrameContext context);

    /** {@link #offer(ByteBuffer)} for a byte range. */
    long offer(byte[] src, int offset, int length);

    // ---- consumers --------------------------------------------------------------------------

    List<Integer> consumerDevices();

    /** The port of consumer {@code device}; {@link IllegalArgumentException} naming the consumers if there is none. */
    ConsumerPort consumer(int device);

    ChannelSnapshot snapshot();

    /**
     * The consumer processes attached to this channel now, by seat ({@code docs/cross-process.md}); empty when the
     * channel is not shared. Any thread; a copy, read from the shared region's words without a lock.
     */
    default List<AttachedConsumer> attachedConsumers() {
        return List.of();
    }

    // ---- life -------------------------------------------------------------------------------

    /**
     * Stops new producer calls (atomically: {@code OPEN} to {@code DRAINING}), waits for those already
     * running, then up to {@code timeout} for every live consumer to acknowledge what was published (the
     * launcher must be running to consume it), then closes. Every frame whose publish returned is
     * delivered or counted in the report. Called again (or concurrently), it returns the first drain's
     * report. Returns early, with the interrupt flag kept, when the thread is interrupted.
     * The channel's memory is freed by whoever leaves it last: before this returns when no launcher is inside a
     * consume step of it, otherwise as the launcher leaves that step.
     */
    DrainReport drainAndClose(Duration timeout);

    /** {@link #drainAndClose(Duration)} with the channel's stall timeout. */
    @Override
    void close();
}

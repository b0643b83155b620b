package io.seqlink.channel;

import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;

/**
 * The frames of one consume round as a device listener sees them: where they are on (or reachable
 * from) the consumer's device, and the stream to enqueue work on. Work enqueued on {@link #stream()}
 * runs after the consume step and before the ack, so it may read the frames; the ack follows it.
 * Valid only during the call.
 *
 * <p>An armed round ({@link DeviceFrameHandler#acceptsArmedRounds}) is handed over before its one frame
 * ({@code first() == last()}) is published, and may end without it: the frames the round took are those
 * {@code max(first(), VALID_FROM) .. min(last(), READY_TO)} of the {@link #descriptor()}, which the consume
 * step writes before the listener's work runs (stream order), so kernels read it there, never the host.
 *
 * <p>A frame's trace context ({@link PublishChannel#context(FrameContext)}) is read on the host, from the header words
 * the producing host wrote, not from the device: {@link #hasContext(long)} and {@link #context(long, FrameContext)}
 * make no device call, so a listener learns each frame's context as it enqueues that frame's work and can carry it to
 * what the work publishes.
 */
public interface DeviceFrames {

    String channel();

    int consumerDevice();

    /** First sequence of the round. */
    long first();

    /**
     * Last sequence of the round ({@code first() - 1} when empty). For an armed round, the frame it was armed
     * for: whether it came, only the descriptor's {@code READY_TO} (read on the device) says.
     */
    long last();

    /**
     * The memory that holds the round's frames: the consumer's local ring (copy mode: the consume step copied them
     * there) or the source ring (direct mode: the producer's ring, or its replica on a push transport). For a
     * listener that {@linkplain DeviceFrameHandler#consumesInKernel consumes in its kernel} there is no consume step,
     * so no copy: always the source ring, the one {@code seqlink::device::take_round} reads in place
     * ({@code payload(handles, s)}).
     */
    Memory memory();

    /** Offset of the payload of {@code sequence} in {@link #memory()}. */
    long payloadOffset(long sequence);

    /** Offset of the header ({@link io.seqlink.layout.SlotHeader}) of {@code sequence} in {@link #memory()}. */
    long headerOffset(long sequence);

    /**
     * The consumer's device block ({@link io.seqlink.layout.ConsumerBlock}): the round's consume step writes
     * the frames it took into it before the listener's work runs, {@code READY_TO} (the last taken; below
     * {@link #first()} when it took none, as an armed round released without its frame) and
     * {@code VALID_FROM} (under latest delivery, frames below it were overwritten: skip them). Read it in
     * stream order ({@code seqlink::device::round_frames}).
     */
    Memory descriptor();

    /**
     * The consumer's acknowledgement word's memory (its host mirror, {@link io.seqlink.layout.ConsumerBlock}), for
     * a listener that {@linkplain DeviceFrameHandler#acknowledgesInKernel acknowledges in its kernel}: pass it at
     * offset 0 to {@code seqlink::device::acknowledge_taken_at_end}, which stores into its {@code CONSUMED_SEQ}.
     */
    Memory acknowledgement();

    /** The consumer's stream. */
    DeviceStream stream();

    /**
     * The consumer's handles for a listener that {@linkplain DeviceFrameHandler#consumesInKernel consumes in its
     * kernel}: pass them with {@code KernelCall.consumeHandles(index, frames.consumeHandles())} to the round's one
     * kernel ({@code seqlink::device::take_round} and {@code end_round}). Bound to {@link #stream()}.
     */
    ConsumeKernel consumeHandles();

    /**
     * The round's number: the round kernel of a listener that consumes in its kernel passes it to
     * {@code seqlink::device::take_round}, an acknowledging kernel to {@code acknowledge_taken_at_end}, which tag their
     * grid counters with it (so a launch of which a block returned early fails the next round instead of corrupting it).
     */
    long round();

    /**
     * Whether the round is armed: handed over before its frame was seen published (only to a listener that
     * {@linkplain DeviceFrameHandler#acceptsArmedRounds accepts armed rounds}), so it may take nothing, and the host
     * may cancel it. A round kernel passes it to {@code seqlink::device::take_round}.
     */
    boolean armed();

    /**
     * Whether frame {@code sequence} of this round carries a trace context in its header. See
     * {@link #context(long, FrameContext)}, which this is without the copy. The listener's thread, during the call;
     * allocates nothing.
     *
     * @throws IllegalArgumentException when {@code sequence} is outside {@link #first()}..{@link #last()}
     */
    default boolean hasContext(long sequence) {
        return false;
    }

    /**
     * Copies the trace context frame {@code sequence} of this round carries in its header into {@code into} and returns
     * {@code true}, or clears {@code into} and returns {@code false} when it carries none. Read on the host from the
     * header words the producer's host wrote (one word for a frame without a context); no device call, no allocation.
     * The listener's thread, during the call.
     *
     * <p>The channel keeps a frame's slot until every consumer acknowledged it, and the channel's own ack step follows
     * the call, so for an ordinary listener the answer holds for the whole call. A frame not seen published as the call
     * runs (an armed round's, or one a round kernel takes later), and one whose slot the producer has claimed again
     * (under {@code latest} delivery, or once the listener's own kernel acknowledged the round: read the contexts
     * before enqueuing it), carries none as far as this says: never another frame's.
     *
     * @throws IllegalArgumentException when {@code sequence} is outside {@link #first()}..{@link #last()}
     */
    default boolean context(long sequence, FrameContext into) {
        into.clear();
        return false;
    }
}

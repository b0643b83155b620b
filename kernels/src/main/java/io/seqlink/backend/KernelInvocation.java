package io.seqlink.backend;

import java.nio.ByteBuffer;

/**
 * One launch of a user kernel as its {@link EmulatedKernel Java twin} sees it: the grid, and the
 * arguments as they were when the launch was enqueued, by parameter index. Valid only during
 * {@link EmulatedKernel#run}; every accessor is allocation-free and fails with an
 * {@link IllegalArgumentException} naming the index when the parameter is of another kind.
 */
public interface KernelInvocation {

    /** The kernel's name in its module. */
    String kernel();

    int blocks();

    int threads();

    /**
     * The memory a {@link KernelParam#POINTER} argument points into: the whole region, little-endian,
     * for absolute get/put (never change its position or limit).
     */
    ByteBuffer memory(int index);

    /** The index in {@link #memory(int)} the pointer argument points at. */
    int offset(int index);

    long u64(int index);

    int u32(int index);

    float f32(int index);

    double f64(int index);

    /**
     * The ring behind a {@link KernelParam#PUBLISH_HANDLES} or {@link KernelParam#CONSUME_HANDLES}
     * argument (the producer's ring, or the replica a consumer reads), for absolute get/put.
     */
    ByteBuffer ring(int index);

    /**
     * The index of frame {@code sequence}'s slot in {@link #ring(int)}: its header ({@code stamp},
     * {@code length}; {@link io.seqlink.layout.SlotHeader}) is there, its payload
     * {@link io.seqlink.layout.SlotHeader#BYTES} further ({@code seqlink::device::payload}).
     */
    int slotOffset(int index, long sequence);

    /** {@code seqlink::device::first_unpublished(handles)} on the {@link KernelParam#PUBLISH_HANDLES} argument. */
    long firstUnpublished(int index);

    /**
     * {@code seqlink::device::publish_at_end(handles, count)} on the {@link KernelParam#PUBLISH_HANDLES}
     * argument: stamps the next {@code count} frames and publishes them with the publish step's orderings.
     */
    void publishAtEnd(int index, int count);

    /**
     * {@code seqlink::device::acquire_published(handles)} on the {@link KernelParam#CONSUME_HANDLES}
     * argument: the one acquire read of the producer's {@code publish_seq}, made at the first call of the
     * launch; every later call of the same launch returns the same value, as every block of a CUDA grid
     * gets the value its blocks agreed on.
     */
    long acquirePublished(int index);

    /**
     * {@code seqlink::device::acknowledge_at_end(handles, sequence)} on the {@link KernelParam#CONSUME_HANDLES}
     * argument: acknowledges, when the twin returns, the smallest sequence given in this launch (as the last
     * block of a CUDA grid acknowledges the smallest any block passed); nothing when the twin throws.
     */
    void acknowledge(int index, long sequence);

    /**
     * {@code seqlink::device::acknowledge_taken_at_end(descriptor, acknowledgement, arrivals, round)}, the in-kernel
     * acknowledgement of a device listener ({@link io.seqlink.channel.DeviceFrameHandler#acknowledgesInKernel}):
     * when the twin returns (nothing when it throws), one release store of the descriptor's {@code READY_TO}
     * (read in stream order) into the acknowledgement word. {@code descriptor} and {@code acknowledgement} are the
     * indexes of the {@link KernelParam#POINTER} arguments given {@code DeviceFrames.descriptor()} and
     * {@code DeviceFrames.acknowledgement()}. A twin runs as one thread, so it has no grid counter to pass: the
     * CUDA header's {@code arrivals} and {@code round} (a round-tagged counter of the grid's blocks) have no twin.
     */
    void acknowledgeTaken(int descriptor, int acknowledgement);

    /**
     * {@code seqlink::device::take_round(handles, from, to, round, armed)} on the {@link KernelParam#CONSUME_HANDLES}
     * argument, the first act of a round kernel ({@link io.seqlink.channel.DeviceFrameHandler#consumesInKernel}): the
     * launch's one acquire read ({@link #acquirePublished}), for an armed round the host's cancel word after it (a
     * cancelled round takes nothing), and the round's end, {@code min(to, published)}; the frames {@code from..end}
     * are the round's (none when {@code end < from}), read in place in {@link #ring}. Pass
     * {@code DeviceFrames.first()}, {@code last()}, {@code round()} and {@code armed()}.
     */
    long takeRound(int index, long from, long to, long round, boolean armed);

    /**
     * {@code seqlink::device::end_round(handles, taken)} on the {@link KernelParam#CONSUME_HANDLES} argument after
     * {@link #takeRound}: when the twin returns (nothing when it throws), the end of the round as the consume step
     * writes it (stamp check, counters, descriptor, mirror), with the acknowledgement of what it took released
     * before the mirror's round word.
     */
    void endRound(int index);
}

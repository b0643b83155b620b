package io.seqlink.bench;

import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * {@link ChecksumListener}'s work for a device listener that takes armed rounds: one
 * {@code pattern_checksum_taken} kernel per frame, which checksums the frame only when the round's consume
 * step took it (it reads the descriptor in stream order: {@code seqlink::device::round_frames}), into word
 * {@code sequence % 1024} of a host-mapped buffer. Built {@linkplain #acknowledgesInKernel acknowledging in its
 * kernel}, the round's last frame goes to {@code pattern_checksum_taken_acking}, which ends with
 * {@code seqlink::device::acknowledge_taken_at_end}, and the channel enqueues no ack step. Built {@linkplain
 * #consumesInKernel consuming in its kernel} ({@link Ending#ROUND_KERNEL}), the whole round is one
 * {@code pattern_checksum_round} kernel ({@code take_round}, each frame's checksum read in place, {@code end_round}):
 * no consume step, no ack step. Its kernels are bound
 * when it is built, on the consumer's stream: bind before subscribing (loading a module on CUDA releases an armed
 * wait). Allocates nothing per round.
 */
public final class TakenChecksumListener implements DeviceFrameHandler {

    /** {@code pattern_checksum_taken(descriptor, sequence, src, length, out, scratch)} in the tools' module. */
    static final String KERNEL = "pattern_checksum_taken";
    /** {@code pattern_checksum_taken_acking(descriptor, sequence, src, length, out, scratch, acknowledgement, round)}. */
    static final String ACKING_KERNEL = "pattern_checksum_taken_acking";
    /** {@code pattern_checksum_round(handles, first, last, round, armed, out, scratch)}: a round that is one kernel. */
    static final String ROUND_KERNEL = "pattern_checksum_round";

    /** How a round ends: who consumes and who acknowledges. */
    public enum Ending {
        /** The channel's consume step, the checksum kernels, the channel's ack step. */
        ACK_STEP,
        /** The channel's consume step, the checksum kernels, the last acknowledging ({@link #acknowledgesInKernel}). */
        ACK_IN_KERNEL,
        /** One kernel is the round ({@link #consumesInKernel}). */
        ROUND_KERNEL
    }
    private static final int THREADS = 256;
    private static final long BYTES_PER_THREAD = 32;

    private final long length;
    private final MappedBuffer sums;
    private final KernelCall checksum;
    /** The round's last frame's kernel when the listener acknowledges in its kernel; null otherwise. */
    private final @Nullable KernelCall acking;
    /** The round's one kernel when the listener consumes in its kernel; null otherwise. */
    private final @Nullable KernelCall round;
    /** Two lines: the checksum's fold, then the in-kernel acknowledgement's arrival counter. */
    private final DeviceBuffer scratch;
    private final int blocks;

    /** The listener, its rounds ending as {@code ending} says. */
    public TakenChecksumListener(DeviceStream consumerStream, long length, MappedBuffer sums, Ending ending) {
        this.length = length;
        this.sums = sums;
        this.scratch = consumerStream.device().allocate(2L * Memory.ALIGNMENT);
        this.blocks = (int) Math.max(1, Math.min(8L * consumerStream.device().multiprocessors(),
                (length + THREADS * BYTES_PER_THREAD - 1) / (THREADS * BYTES_PER_THREAD)));
        this.checksum = consumerStream.bindKernel(BenchWork.MODULE, KERNEL, KernelParam.POINTER, KernelParam.U64,
                KernelParam.POINTER, KernelParam.U64, KernelParam.POINTER, KernelParam.POINTER)
                .u64(3, length).pointer(5, scratch, 0).handOver();
        this.acking = ending == Ending.ACK_IN_KERNEL ? consumerStream.bindKernel(BenchWork.MODULE, ACKING_KERNEL, KernelParam.POINTER, KernelParam.U64,
                KernelParam.POINTER, KernelParam.U64, KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64)
                .u64(3, length).pointer(5, scratch, 0).handOver() : null;
        this.round = ending == Ending.ROUND_KERNEL ? consumerStream.bindKernel(BenchWork.MODULE, ROUND_KERNEL,
                KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64, KernelParam.U64, KernelParam.U64, KernelParam.POINTER,
                KernelParam.POINTER).pointer(5, sums, 0).pointer(6, scratch, 0).handOver() : null;
    }

    /** Adds the kernel's Java twin to the tools' module under construction. */
    static KernelModule.Builder withTwin(KernelModule.Builder module) {
        return module.emulated(KERNEL, TakenChecksumListener::twin).emulated(ACKING_KERNEL, call -> {
            twin(call);
            call.acknowledgeTaken(0, 6);
        }).emulated(ROUND_KERNEL, TakenChecksumListener::roundTwin);
    }

    /** {@code pattern_checksum_round}'s twin: take_round, each frame's checksum read in place into word s % 1024, end_round. */
    private static void roundTwin(KernelInvocation call) {
        long first = call.u64(1);
        long end = call.takeRound(0, first, call.u64(2), call.u64(3), call.u64(4) != 0);
        ByteBuffer ring = call.ring(0);
        for (long s = first; s <= end; s++) {
            int slot = call.slotOffset(0, s);
            call.memory(5).putLong(call.offset(5) + 8 * (int) (s % ChecksumListener.RESULT_WORDS),
                    FramePattern.checksum(ring, slot + SlotHeader.BYTES, (int) ring.getLong(slot + SlotHeader.LENGTH)));
        }
        call.endRound(0);
    }

    private static void twin(KernelInvocation call) {
        long s = call.u64(1);
        int d = call.offset(0);
        long validFrom = call.memory(0).getLong(d + ConsumerBlock.VALID_FROM); // stream order, as round_frames
        long readyTo = call.memory(0).getLong(d + ConsumerBlock.READY_TO);
        if (Math.max(s, validFrom) <= Math.min(s, readyTo)) {
            call.memory(4).putLong(call.offset(4), FramePattern.checksum(call.memory(2), call.offset(2), Math.toIntExact(call.u64(3))));
        }
    }

    @Override
    public boolean acceptsArmedRounds() {
        return true;
    }

    @Override
    public boolean acknowledgesInKernel() {
        return acking != null;
    }

    @Override
    public boolean consumesInKernel() {
        return round != null;
    }

    @Override
    public void onFrames(DeviceFrames frames) {
        if (round != null) {
            round.consumeHandles(0, frames.consumeHandles()).u64(1, frames.first()).u64(2, frames.last()).u64(3, frames.round())
                    .u64(4, frames.armed() ? 1 : 0).launch(blocks, THREADS);
            return;
        }
        for (long s = frames.first(); s <= frames.last(); s++) {
            KernelCall k = s == frames.last() && acking != null
                    ? acking.pointer(6, frames.acknowledgement(), 0).u64(7, frames.round()) : checksum;
            k.pointer(0, frames.descriptor(), 0).u64(1, s).pointer(2, frames.memory(), frames.payloadOffset(s))
                    .pointer(4, sums, 8 * (s % ChecksumListener.RESULT_WORDS)).launch(blocks, THREADS);
        }
    }

    /** Frees the scratch line (after the channel closed). */
    public void close() {
        scratch.close();
    }

    @Override
    public String toString() {
        return "TakenChecksumListener[" + length + " B" + (acking != null ? ", acknowledges in kernel]"
                : round != null ? ", consumes in kernel]" : "]");
    }
}

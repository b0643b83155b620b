package io.seqlink.testing;

import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.gpu.TestKernels;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jspecify.annotations.Nullable;

/**
 * A device listener that takes armed rounds: one {@code test_armed_take} kernel per frame of the round
 * ({@code src/test/cuda/test_kernels.cu}, Java twin here), which reads the round's descriptor in stream
 * order and does nothing for a frame the consume step did not take. Its results, in a host-mapped buffer
 * the kernels alone write: launches that found their frame not taken, frames taken out of order, and per
 * frame the deliveries and the checksum (frames are {@link FramePattern}s of {@link #length} bytes with
 * seed {@link FrameChecker#seedOf}). Optionally throws once when called for a chosen frame, before or after
 * enqueuing its work (a listener failing half-way through an armed round). Built {@linkplain #acknowledgesInKernel
 * acknowledging in its kernel}, the round's last frame goes to {@code test_armed_take_acking}, which ends with the
 * round's acknowledgement ({@code seqlink::device::acknowledge_taken_at_end}), and the channel enqueues no ack step.
 * Built {@linkplain #consumesInKernel consuming in its kernel} ({@link Ending#ROUND_KERNEL}), the whole round is one
 * {@code test_round_take} kernel: {@code take_round}, the same counts for each frame it took (read in place), then
 * {@code end_round}; the channel enqueues neither its consume step nor an ack step.
 */
public final class ArmedChecksumListener implements DeviceFrameHandler {

    /**
     * {@code test_armed_take_acking(descriptor, payload, sequence, length, results, acknowledgement, arrivals, round,
     * skip_block)}.
     */
    private static final KernelParam[] ACKING_PARAMS = {KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64,
        KernelParam.U64, KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64, KernelParam.U64};
    /** {@code test_round_take(handles, first, last, round, armed, results, skip_block, skip_take)}. */
    private static final KernelParam[] ROUND_PARAMS = {KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
        KernelParam.U64, KernelParam.U64, KernelParam.POINTER, KernelParam.U64, KernelParam.U64};

    public static final KernelModule MODULE = KernelModule.builder("seqlink-test-armed",
            KernelImage.ofResource("io/seqlink/kernels/test/seqlink-test.fatbin"))
            .emulated("test_armed_take", ArmedChecksumListener::take)
            .emulated("test_armed_take_acking", call -> {
                take(call);
                call.acknowledgeTaken(0, 5);
            })
            .emulated("test_round_take", ArmedChecksumListener::takeRound).build();

    /** How a round ends: who consumes and who acknowledges. */
    public enum Ending {
        /** The channel's consume step, the listener's kernels, the channel's ack step. */
        ACK_STEP,
        /** The channel's consume step, the listener's kernels, the last acknowledging ({@link #acknowledgesInKernel}). */
        ACK_IN_KERNEL,
        /** The listener's one kernel is the round ({@link #consumesInKernel}). */
        ROUND_KERNEL
    }

    /** A kernel parameter value for "no block skips" ({@code skip_block}: no block's index is this large). */
    public static final long NO_BLOCK = -1L;

    private final MappedBuffer results;
    /** The acknowledging kernel's round-tagged arrival counter (a zeroed word of device memory). */
    private final DeviceBuffer arrivals;
    private final int length;
    private final KernelCall take;
    /** The round's last frame's kernel when the listener acknowledges in its kernel; null otherwise. */
    private final @Nullable KernelCall takeAcking;
    /** The round's one kernel when the listener consumes in its kernel; null otherwise. */
    private final @Nullable KernelCall takeRound;
    private final AtomicIntegerArray calls;
    /** The frame's checksum by a grid, after the take kernel (which then checks no byte); null: the take kernel's own. */
    private final @Nullable PatternKernels gridChecksum;
    private volatile long failOnce;
    private volatile boolean failAfterWork;

    /**
     * Binds the kernel to {@code stream} (the consumer's: bind it before subscribing, since loading a module
     * on CUDA releases the stream's armed wait) for frames 1 to {@code frames}.
     */
    public ArmedChecksumListener(DeviceStream stream, int frames, int length) {
        this(stream, frames, length, Ending.ACK_STEP);
    }

    /** The same listener, its rounds ending as {@code ending} says. */
    public ArmedChecksumListener(DeviceStream stream, int frames, int length, Ending ending) {
        this(stream, frames, length, ending, false);
    }

    /**
     * The listener of the latency rows ({@link Ending#ACK_STEP}): the take kernel counts the frame, and a grid
     * ({@link PatternKernels#checksum}) checks its bytes, as the hand-written consumer's kernel does, so a frame's cycle
     * does not grow with one thread reading every byte (at 1 MiB in host memory that thread took about 46 ms a frame).
     * An armed round released without its frame writes a stale checksum, which the round that takes it rewrites.
     */
    public static ArmedChecksumListener gridChecked(DeviceStream stream, int frames, int length) {
        return new ArmedChecksumListener(stream, frames, length, Ending.ACK_STEP, true);
    }

    private ArmedChecksumListener(DeviceStream stream, int frames, int length, Ending ending, boolean grid) {
        this.results = stream.device().allocateMapped(8L * (4 + 2L * (frames + 1)));
        for (long at = 0; at < results.bytes(); at += 8) {
            results.setRelease(at, 0);
        }
        this.arrivals = stream.device().allocate(Memory.ALIGNMENT);
        this.length = length;
        this.calls = new AtomicIntegerArray(frames + 2);
        this.gridChecksum = grid ? PatternKernels.on(stream, TestKernels.MODULE) : null;
        this.take = stream.bindKernel(MODULE, "test_armed_take", KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64,
                KernelParam.U64, KernelParam.POINTER).u64(3, grid ? 0 : length).pointer(4, results, 0).handOver();
        this.takeAcking = ending == Ending.ACK_IN_KERNEL ? stream.bindKernel(MODULE, "test_armed_take_acking", ACKING_PARAMS)
                .u64(3, length).pointer(4, results, 0).pointer(6, arrivals, 0).u64(8, NO_BLOCK).handOver() : null;
        this.takeRound = ending == Ending.ROUND_KERNEL ? stream.bindKernel(MODULE, "test_round_take", ROUND_PARAMS)
                .pointer(5, results, 0).u64(6, NO_BLOCK).u64(7, 0).handOver() : null;
    }

    /** Frame {@code sequence}'s payload, as the kernel checks it. */
    public static byte[] payload(long sequence, int length) {
        byte[] bytes = new byte[length];
        FramePattern.fill(ByteBuffer.wrap(bytes), 0, length, FrameChecker.seedOf(sequence));
        return bytes;
    }

    /**
     * The next call for a round holding {@code sequence} throws: after it enqueued its kernels when
     * {@code afterWork} (a failed attempt's kernels run, as on any stream: they take the frame if it came),
     * before otherwise.
     */
    public void failOnce(long sequence, boolean afterWork) {
        failAfterWork = afterWork;
        failOnce = sequence;
    }

    @Override
    public boolean acceptsArmedRounds() {
        return true;
    }

    @Override
    public boolean acknowledgesInKernel() {
        return takeAcking != null;
    }

    @Override
    public boolean consumesInKernel() {
        return takeRound != null;
    }

    @Override
    public void onFrames(DeviceFrames frames) {
        long fail = failOnce;
        boolean failing = fail != 0 && fail >= frames.first() && fail <= frames.last();
        if (failing && !failAfterWork) {
            failOnce = 0;
            throw new IllegalStateException("the test's listener fails once, before its work");
        }
        if (takeRound != null) {
            for (long s = frames.first(); s <= frames.last(); s++) {
                calls.incrementAndGet((int) s);
            }
            takeRound.consumeHandles(0, frames.consumeHandles()).u64(1, frames.first()).u64(2, frames.last())
                    .u64(3, frames.round()).u64(4, frames.armed() ? 1 : 0).launch(1, 32);
        }
        for (long s = frames.first(); takeRound == null && s <= frames.last(); s++) {
            calls.incrementAndGet((int) s);
            KernelCall k = s == frames.last() && takeAcking != null
                    ? takeAcking.pointer(5, frames.acknowledgement(), 0).u64(7, frames.round()) : take;
            k.pointer(0, frames.descriptor(), 0).pointer(1, frames.memory(), frames.payloadOffset(s)).u64(2, s).launch(1, 1);
            PatternKernels grid = gridChecksum;
            if (grid != null) {
                grid.checksum(frames.memory(), frames.payloadOffset(s), length, results, 8 * (3 + 2 * s));
            }
        }
        if (failing) {
            failOnce = 0;
            throw new IllegalStateException("the test's listener fails once, its kernels enqueued");
        }
    }

    /** The kernel's Java twin: {@code test_armed_take}. */
    private static void take(KernelInvocation call) {
        ByteBuffer descriptor = call.memory(0);
        int d = call.offset(0);
        long s = call.u64(2);
        ByteBuffer r = call.memory(4);
        int base = call.offset(4);
        long validFrom = descriptor.getLong(d + ConsumerBlock.VALID_FROM);  // stream order, as round_frames
        long readyTo = descriptor.getLong(d + ConsumerBlock.READY_TO);
        if (Math.max(s, validFrom) > Math.min(s, readyTo)) {
            r.putLong(base, r.getLong(base) + 1);
            return;
        }
        count(r, base, s, FramePattern.checksum(call.memory(1), call.offset(1), (int) call.u64(3)));
    }

    /** Counts frame {@code s} taken, with its checksum: out of order, deliveries, checksum. */
    private static void count(ByteBuffer r, int base, long s, long checksum) {
        if (s <= r.getLong(base + 8)) {
            r.putLong(base + 16, r.getLong(base + 16) + 1);
        }
        r.putLong(base + 8, s);
        int at = base + 8 * (2 + 2 * (int) s);
        r.putLong(at, r.getLong(at) + 1);
        r.putLong(at + 8, checksum);
    }

    /** The round kernel's Java twin: {@code test_round_take} (one thread: no block returns early). */
    private static void takeRound(KernelInvocation call) {
        long first = call.u64(1);
        long end = call.takeRound(0, first, call.u64(2), call.u64(3), call.u64(4) != 0);
        ByteBuffer r = call.memory(5);
        int base = call.offset(5);
        if (end < first) {
            r.putLong(base, r.getLong(base) + 1);
        }
        ByteBuffer ring = call.ring(0);
        for (long s = first; s <= end; s++) {
            count(r, base, s, FramePattern.checksum(ring, call.slotOffset(0, s) + SlotHeader.BYTES,
                    (int) ring.getLong(call.slotOffset(0, s) + SlotHeader.LENGTH)));
        }
        call.endRound(0);
    }

    /** Launches that found their frame not taken (an armed round released or woken early). */
    public long untakenLaunches() {
        return results.getAcquire(0);
    }

    /** Frames taken at or below one taken before. */
    public long outOfOrder() {
        return results.getAcquire(16);
    }

    /** How often the kernels took frame {@code sequence}. */
    public long deliveries(long sequence) {
        return results.getAcquire(8 * (2 + 2 * sequence));
    }

    /** Whether the kernels' checksum of frame {@code sequence} is its pattern's. */
    public boolean intact(long sequence) {
        return results.getAcquire(8 * (3 + 2 * sequence)) == FramePattern.expectedChecksum(FrameChecker.seedOf(sequence), length);
    }

    /** Listener calls for {@code sequence} (armed or ordinary) that enqueued its kernel. */
    public int calls(long sequence) {
        return calls.get((int) sequence);
    }

    /** Frees the results buffer and the counter (after the channel closed). */
    public void close() {
        results.close();
        arrivals.close();
    }
}

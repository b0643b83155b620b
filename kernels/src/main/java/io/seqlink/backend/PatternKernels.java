package io.seqlink.backend;

/**
 * The {@link FramePattern} fill and checksum as user kernels on one stream: what a service uses to write
 * and check frames on a device (the sample's pipeline makes its synthetic images and end-to-end checksums
 * with them; the tests and benchmarks too). A module that uses them compiles two entry points over
 * {@code seqlink_pattern.cuh} (shipped in the jar with the other device headers; a shipped header defines
 * no kernels, so each module writes these two lines itself):
 *
 * <pre>{@code
 * extern "C" __global__ void pattern_fill(uint64_t dst, uint64_t length, uint64_t seed) {
 *     seqlink::fill_pattern_grid(dst, length, seed);
 * }
 * extern "C" __global__ void pattern_checksum(uint64_t src, uint64_t length, uint64_t out, uint64_t scratch) {
 *     seqlink::checksum_grid(src, length, out, scratch);
 * }
 * }</pre>
 *
 * and registers their Java twins with {@link #withTwins}. The grids are sized to the frame: two 16-byte
 * accesses per thread up to eight blocks per multiprocessor.
 *
 * <p>Thread-safe: each method sets its call's arguments and launches under the instance's lock. The
 * stream's own rule still holds: work from several threads lands in whatever order they enqueue it.
 */
public final class PatternKernels {

    /** {@code pattern_fill(uint64_t dst, uint64_t length, uint64_t seed)}. */
    public static final String FILL = "pattern_fill";
    /** {@code pattern_checksum(uint64_t src, uint64_t length, uint64_t out, uint64_t scratch)}. */
    public static final String CHECKSUM = "pattern_checksum";

    private static final int THREADS = 256;
    private static final long BYTES_PER_THREAD = 32;

    private final KernelCall fill;
    private final KernelCall checksum;
    private final DeviceBuffer scratch;
    private final int maxBlocks;

    private PatternKernels(DeviceStream stream, KernelModule module) {
        this.fill = stream.bindKernel(module, FILL, KernelParam.POINTER, KernelParam.U64, KernelParam.U64);
        this.checksum = stream.bindKernel(module, CHECKSUM, KernelParam.POINTER, KernelParam.U64, KernelParam.POINTER,
                KernelParam.POINTER);
        this.scratch = stream.device().allocate(Memory.ALIGNMENT);
        this.maxBlocks = 8 * stream.device().multiprocessors();
    }

    /** The pattern kernels of {@code module} on {@code stream}; allocates one 128-byte scratch line on its device. */
    public static PatternKernels on(DeviceStream stream, KernelModule module) {
        return new PatternKernels(stream, module);
    }

    /** Adds the Java twins of {@link #FILL} and {@link #CHECKSUM} to a module under construction. */
    public static KernelModule.Builder withTwins(KernelModule.Builder module) {
        return module
                .emulated(FILL, call -> FramePattern.fill(call.memory(0), call.offset(0), Math.toIntExact(call.u64(1)), call.u64(2)))
                .emulated(CHECKSUM, call -> call.memory(2).putLong(call.offset(2),
                        FramePattern.checksum(call.memory(0), call.offset(0), Math.toIntExact(call.u64(1)))));
    }

    /** Enqueues: {@code length} bytes of the pattern for {@code seed} at {@code dst + offset}. */
    public synchronized void fill(Memory dst, long offset, long length, long seed) {
        check(dst, offset, length, "dst");
        if (length == 0) {
            return;
        }
        fill.pointer(0, dst, offset).u64(1, length).u64(2, seed).launch(blocksFor(length), THREADS);
    }

    /** Enqueues: the checksum of {@code length} bytes at {@code src + offset} into the 64-bit word at {@code out + outOffset}. */
    public synchronized void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        check(src, offset, length, "src");
        check(out, outOffset, 8, "out");
        if ((outOffset & 7) != 0) {
            throw new IllegalArgumentException("outOffset must be a multiple of 8 (the checksum is a 64-bit word), was " + outOffset);
        }
        checksum.pointer(0, src, offset).u64(1, length).pointer(2, out, outOffset).pointer(3, scratch, 0)
                .launch(blocksFor(length), THREADS);
    }

    private int blocksFor(long length) {
        return (int) Math.max(1, Math.min(maxBlocks, (length + THREADS * BYTES_PER_THREAD - 1) / (THREADS * BYTES_PER_THREAD)));
    }

    private static void check(Memory m, long offset, long length, String what) {
        if (offset < 0 || length < 0 || offset + length > m.bytes()) {
            throw new IndexOutOfBoundsException(what + ": [" + offset + ", " + (offset + length) + ") is outside the "
                    + m.bytes() + " bytes of " + m);
        }
    }
}

package io.seqlink.bench;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmarks' device work on one stream, through the user-kernel API: the frame pattern's
 * {@link PatternKernels} and the sample-like {@link ModelKernels}, from the tools module's own fat
 * binary ({@code seqlink_tools.cu}; none of them is in the runtime's), with their Java twins for the
 * emulated backend. One instance per stream, bound on first use; thread-safe like its parts.
 */
public final class BenchWork {

    /** The tools' kernels: pattern, model, launch-path no-ops and the article's scheme baselines (CUDA only). */
    public static final KernelModule MODULE = ModelKernels.withTwins(PatternKernels.withTwins(
            KernelModule.builder("seqlink-tools", KernelImage.ofResource("io/seqlink/tools/seqlink-tools.fatbin")))).build();

    private static final Map<DeviceStream, BenchWork> BY_STREAM = new ConcurrentHashMap<>();

    private final PatternKernels pattern;
    private final ModelKernels model;

    private BenchWork(DeviceStream stream) {
        this.pattern = PatternKernels.on(stream, MODULE);
        this.model = ModelKernels.on(stream, MODULE);
    }

    /** The work bound to {@code stream} (bound on first use). */
    public static BenchWork on(DeviceStream stream) {
        return BY_STREAM.computeIfAbsent(stream, BenchWork::new);
    }

    public void fillPattern(Memory dst, long offset, long length, long seed) {
        pattern.fill(dst, offset, length, seed);
    }

    public void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        pattern.checksum(src, offset, length, out, outOffset);
    }

    public void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        model.normalize(src, srcOffset, dst, dstOffset, count, mean, std);
    }

    public void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows, int cols) {
        model.matvec(weights, weightsOffset, x, xOffset, y, yOffset, rows, cols);
    }
}

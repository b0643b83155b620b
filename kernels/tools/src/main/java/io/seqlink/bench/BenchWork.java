package io.seqlink.bench;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.PatternKernels;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmarks' device work, through the user-kernel API: the tools module's own fat binary
 * ({@code seqlink_tools.cu}; none of it is in the runtime's) with the Java twins of its pattern and model
 * kernels, bound to a stream on first use.
 */
public final class BenchWork {

    /** The tools' kernels: pattern, model, launch-path no-ops and the article's scheme baselines (CUDA only). */
    public static final KernelModule MODULE = ModelKernels.withTwins(PatternKernels.withTwins(
            KernelModule.builder("seqlink-tools", KernelImage.ofResource("io/seqlink/tools/seqlink-tools.fatbin")))).build();

    private static final Map<DeviceStream, ModelWork> BY_STREAM = new ConcurrentHashMap<>();

    private BenchWork() {
    }

    /** The work bound to {@code stream} (bound on first use; safe from any thread). */
    public static ModelWork on(DeviceStream stream) {
        return BY_STREAM.computeIfAbsent(stream, s -> new ModelWork(s, MODULE));
    }
}

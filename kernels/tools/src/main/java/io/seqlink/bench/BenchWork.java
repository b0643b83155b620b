package io.seqlink.bench;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.PatternKernels;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmarks' device work, through the user-kernel API: the tools module's own fat binary
 * ({@code seqlink_tools.cu}; none of it is in the runtime's) with the Java twins of its pattern and pipeline
 * kernels, bound to a stream on first use.
 */
public final class BenchWork {

    /** The tools' kernels: pattern, pipeline workload, launch-path no-ops, scheme baselines and fast-path prototypes. */
    public static final KernelModule MODULE = TakenChecksumListener.withTwin(PipelineKernels.withTwins(PatternKernels.withTwins(
            KernelModule.builder("seqlink-tools", KernelImage.ofResource("io/seqlink/tools/seqlink-tools.fatbin")))))
            .emulated(BenchWork.NOOP, call -> { }).build();

    /** {@code bench_noop()}: an empty kernel (a step's launch and scheduling, nothing else). */
    public static final String NOOP = "bench_noop";

    private static final Map<DeviceStream, PatternKernels> PATTERN = new ConcurrentHashMap<>();
    private static final Map<DeviceStream, PipelineKernels> PIPELINE = new ConcurrentHashMap<>();

    private BenchWork() {
    }

    /** The pattern's fill and checksum bound to {@code stream} (bound on first use; safe from any thread). */
    public static PatternKernels on(DeviceStream stream) {
        return PATTERN.computeIfAbsent(stream, s -> PatternKernels.on(s, MODULE));
    }

    /** The pipeline benchmark's workload bound to {@code stream} (bound on first use; safe from any thread). */
    public static PipelineKernels pipeline(DeviceStream stream) {
        return PIPELINE.computeIfAbsent(stream, s -> PipelineKernels.on(s, MODULE));
    }
}

package io.seqlink.gpu;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.PatternKernels;

/**
 * The GPU tests' own kernel module ({@code src/test/cuda/test_kernels.cu}, built into the test class path),
 * used through the user-kernel API like any user's: the pattern kernels with their Java twins, and a fault.
 */
public final class TestKernels {

    /** The module, for tests in other packages (the cross-process latency bench fills frames with it). */
    public static final KernelModule MODULE = PatternKernels.withTwins(
            KernelModule.builder("seqlink-test", KernelImage.ofResource("io/seqlink/kernels/test/seqlink-test.fatbin"))).build();

    private TestKernels() {
    }

    /** A kernel on {@code stream} stores to an unmapped address: {@code CUDA_ERROR_ILLEGAL_ADDRESS}. */
    static void illegalAddress(DeviceStream stream) {
        fault(stream, 0);
    }

    /** A kernel on {@code stream} executes a trap: {@code CUDA_ERROR_LAUNCH_FAILED}. */
    static void trap(DeviceStream stream) {
        fault(stream, 1);
    }

    private static void fault(DeviceStream stream, int mode) {
        stream.bindKernel(MODULE, "test_fault", KernelParam.U64, KernelParam.U32)
                .u64(0, 0x10L) // the first page is never mapped
                .u32(1, mode)
                .launch(1, 1);
    }
}

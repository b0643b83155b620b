package io.seqlink.backend.cuda;

import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * One kernel bound to its parameter block: launches pass the block's native {@code params[]} array,
 * so a launch costs one JNI call and no allocation. Not thread-safe: each binding guards its own.
 */
final class KernelLaunch {

    private final DeviceContext context;
    private final String name;
    private final CUfunction function;
    final ParamBlock params;

    /** Runtime kernel {@code name} of the seqlink module. */
    KernelLaunch(DeviceContext context, String name, int... paramSizes) {
        this(context, name, context.function(name), paramSizes);
    }

    /** A kernel resolved elsewhere (a user's module). */
    KernelLaunch(DeviceContext context, String name, CUfunction function, int... paramSizes) {
        this.context = context;
        this.name = name;
        this.function = function;
        this.params = context.params().take().layout(paramSizes);
    }

    /** Enqueues the kernel on {@code stream} with {@code blocks} x {@code threads}. */
    void launch(CUstream stream, int blocks, int threads) {
        context.bind();
        int result = JCudaDriver.cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, stream,
                params.kernelParams(), null);
        if (result != 0) {
            throw Cu.error(result, "cuLaunchKernel(" + name + ")", context.ordinal(), null);
        }
    }

    String name() {
        return name;
    }

    /** Returns the parameter block to its arena. */
    void release() {
        context.params().give(params);
    }
}

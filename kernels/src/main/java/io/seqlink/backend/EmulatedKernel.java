package io.seqlink.backend;

/**
 * The Java twin of one kernel of a {@link KernelModule}, run by the emulated backend in stream order
 * where the CUDA backend would run the kernel: one call per launch, on whatever thread drains the
 * stream, after every earlier operation of the stream and before every later one. It should compute
 * the same bytes as the kernel, so the same application code runs with or without a GPU.
 *
 * <p>It must not block or wait for other work (a kernel that waits can deadlock a GPU too), and must
 * touch only the memory its parameters name. Exceptions fail the stream like a faulting kernel.
 */
@FunctionalInterface
public interface EmulatedKernel {

    /** Runs one launch with its arguments, as they were when the launch was enqueued. */
    void run(KernelInvocation invocation);
}

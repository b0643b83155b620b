package io.seqlink.backend.cuda;

import io.seqlink.backend.AbstractKernelCall;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishKernel;

/**
 * A user kernel bound to a CUDA stream: its function from the user's module and a parameter block laid
 * out from the declared kinds. A launch is one {@code cuLaunchKernel} with the block's native pointer
 * array (the driver copies the values at the call), so arguments may change right after it returns.
 */
final class CudaKernelCall extends AbstractKernelCall {

    private final CudaStream stream;
    private final KernelLaunch launch;

    CudaKernelCall(CudaStream stream, KernelModule module, String kernel, KernelParam[] params) {
        super(kernel, stream, params);
        this.stream = stream;
        int[] sizes = new int[params.length];
        for (int i = 0; i < params.length; i++) {
            sizes[i] = params[i].bytes();
        }
        // loading a module (and, under lazy loading, a function) waits for the context's queued work
        this.launch = new KernelLaunch(stream.context(), kernel,
                stream.backend().withWaitsReleased(stream.context(), () -> stream.context().userFunction(module, kernel)), sizes);
        stream.onClose(launch::release);
    }

    @Override
    protected void writePointer(int index, Memory memory, long offset) {
        // a constant argument name: this runs per launch, and a concatenated one allocated (the GPU suite's
        // allocation test caught 128 bytes per frame)
        launch.params.putLong(index, stream.backend().own(memory, "a pointer parameter").address() + offset);
    }

    @Override
    protected void writeU64(int index, long value) {
        launch.params.putLong(index, value);
    }

    @Override
    protected void writeU32(int index, int value) {
        launch.params.putInt(index, value);
    }

    @Override
    protected void writePublishHandles(int index, PublishKernel publish) {
        if (!(publish instanceof CudaPublishKernel p) || p.stream() != stream) {
            throw otherStream("publish", publish);
        }
        if (p.pushes()) {
            throw pushConsumers();
        }
        p.copyHandles(launch.params, index);
    }

    @Override
    protected void writeConsumeHandles(int index, ConsumeKernel consume) {
        if (!(consume instanceof CudaConsumeKernel c) || c.stream() != stream) {
            throw otherStream("consume", consume);
        }
        c.copyHandles(launch.params, index);
    }

    @Override
    protected void enqueue(int blocks, int threads) {
        stream.checkOpen();
        launch.launch(stream.handle(), blocks, threads);
    }
}

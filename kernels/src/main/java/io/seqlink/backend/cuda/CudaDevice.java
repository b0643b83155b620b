package io.seqlink.backend.cuda;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import jcuda.driver.JCudaDriver;

/** One GPU of the {@link CudaBackend}. */
final class CudaDevice implements Device {

    private final CudaBackend backend;
    private final DeviceContext context;

    CudaDevice(CudaBackend backend, DeviceContext context) {
        this.backend = backend;
        this.context = context;
    }

    DeviceContext context() {
        return context;
    }

    @Override
    public int ordinal() {
        return context.ordinal();
    }

    @Override
    public String name() {
        return context.name();
    }

    @Override
    public int multiprocessors() {
        return context.multiprocessors();
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        backend.checkOpen();
        return backend.track(CudaDeviceBuffer.allocate(backend, context, bytes));
    }

    @Override
    public MappedBuffer allocateMapped(long bytes) {
        backend.checkOpen();
        return backend.track(CudaMappedBuffer.allocate(backend, context, bytes));
    }

    @Override
    public DeviceStream newStream(String name) {
        backend.checkOpen();
        return backend.track(new CudaStream(backend, this, name));
    }

    @Override
    public MemoryInfo memoryInfo() {
        context.bind();
        long[] free = new long[1];
        long[] total = new long[1];
        Cu.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo", ordinal());
        return new MemoryInfo(free[0], total[0]);
    }

    @Override
    public String toString() {
        return "CudaDevice[" + ordinal() + ", " + name() + ", sm_" + context.computeCapability().replace(".", "") + "]";
    }
}

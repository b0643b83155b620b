package io.seqlink.backend.cuda;

import io.seqlink.backend.DeviceBuffer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/** Device memory from {@code cuMemAlloc} (256-byte aligned by the driver), zero-filled at allocation. */
final class CudaDeviceBuffer extends CudaMemory implements DeviceBuffer {

    private final CUdeviceptr pointer;
    private final DeviceContext context;

    private CudaDeviceBuffer(CudaBackend backend, DeviceContext context, CUdeviceptr pointer, long bytes) {
        super(backend, context.ordinal(), NativePointers.address(pointer), bytes);
        this.pointer = pointer;
        this.context = context;
    }

    static CudaDeviceBuffer allocate(CudaBackend backend, DeviceContext context, long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be at least 1, was " + bytes);
        }
        context.bind();
        CUdeviceptr p = new CUdeviceptr();
        Cu.check(JCudaDriver.cuMemAlloc(p, bytes), "cuMemAlloc", context.ordinal(), bytes + " bytes");
        try {
            Cu.check(JCudaDriver.cuMemsetD8Async(p, (byte) 0, bytes, context.utilityStream()), "cuMemsetD8Async",
                    context.ordinal());
            Cu.check(JCudaDriver.cuStreamSynchronize(context.utilityStream()), "cuStreamSynchronize", context.ordinal());
            return new CudaDeviceBuffer(backend, context, p, bytes);
        } catch (RuntimeException ex) {
            JCudaDriver.cuMemFree(p);
            throw ex;
        }
    }

    @Override
    void free() {
        context.bind();
        JCudaDriver.cuMemFree(pointer);
    }

    @Override
    public String toString() {
        return "CudaDeviceBuffer[device=" + ownerDevice() + ", 0x" + Long.toHexString(address()) + ", " + bytes() + " B]";
    }
}

package io.seqlink.backend.cuda;

import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.MappedBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * Pinned host memory mapped into every device's address space ({@code cuMemHostAlloc} with
 * {@code PORTABLE | DEVICEMAP}). Devices address it at {@link #address()}; the host reads and writes
 * its words through a direct buffer with {@link VarHandle} acquire/release, exactly like the emulated
 * backend's mirrors.
 */
final class CudaMappedBuffer extends CudaMemory implements MappedBuffer {

    private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int FLAGS = JCudaDriver.CU_MEMHOSTALLOC_PORTABLE | JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP;

    private final Pointer host;
    private final ByteBuffer buffer;
    private final DeviceContext context;

    private CudaMappedBuffer(CudaBackend backend, DeviceContext context, Pointer host, long deviceAddress, long bytes) {
        super(backend, -1, deviceAddress, bytes);
        this.context = context;
        this.host = host;
        this.buffer = host.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
    }

    static CudaMappedBuffer allocate(CudaBackend backend, DeviceContext context, long bytes) {
        if (bytes < 1 || bytes > AllocationLimits.MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException("bytes must be between 1 and " + Integer.MAX_VALUE
                    + " for pinned mapped memory (the host views it as one buffer), was " + bytes
                    + "; use smaller rings for host-staged or host-delivered channels");
        }
        context.bind();
        Pointer host = new Pointer();
        Cu.check(JCudaDriver.cuMemHostAlloc(host, bytes, FLAGS), "cuMemHostAlloc", context.ordinal(), bytes + " bytes");
        try {
            CUdeviceptr device = new CUdeviceptr();
            Cu.check(JCudaDriver.cuMemHostGetDevicePointer(device, host, 0), "cuMemHostGetDevicePointer", context.ordinal());
            CudaMappedBuffer b = new CudaMappedBuffer(backend, context, host, NativePointers.address(device), bytes);
            b.zero();
            return b;
        } catch (RuntimeException ex) {
            JCudaDriver.cuMemFreeHost(host);
            throw ex;
        }
    }

    private void zero() {
        int n = buffer.capacity();
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            buffer.putLong(i, 0L);
        }
        for (; i < n; i++) {
            buffer.put(i, (byte) 0);
        }
    }

    private int index(long offset) {
        if (offset < 0 || offset + 8 > bytes() || (offset & 7) != 0) {
            throw new IndexOutOfBoundsException("word offset " + offset + " is not a multiple of 8 inside the "
                    + bytes() + " bytes of " + this);
        }
        return (int) offset;
    }

    @Override
    public long getAcquire(long offset) {
        return (long) WORDS.getAcquire(buffer, index(offset));
    }

    @Override
    public long getPlain(long offset) {
        return (long) WORDS.get(buffer, index(offset));
    }

    @Override
    public void setRelease(long offset, long value) {
        WORDS.setRelease(buffer, index(offset), value);
    }

    @Override
    public void setPlain(long offset, long value) {
        WORDS.set(buffer, index(offset), value);
    }

    @Override
    public ByteBuffer byteBuffer() {
        return buffer;
    }

    @Override
    void free() {
        context.bind();
        JCudaDriver.cuMemFreeHost(host);
    }

    @Override
    public String toString() {
        return "CudaMappedBuffer[0x" + Long.toHexString(address()) + ", " + bytes() + " B]";
    }
}

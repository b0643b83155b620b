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
 * Pinned host memory mapped into every device's address space: memory this buffer allocated ({@code cuMemHostAlloc}
 * with {@code PORTABLE | DEVICEMAP}), or a part of a shared-memory mapping the backend registered
 * ({@link SharedRegistrations}). Devices address it at {@link #address()}; the host reads and writes its words through
 * a direct buffer with {@link VarHandle} acquire/release, exactly like the emulated backend's mirrors.
 */
final class CudaMappedBuffer extends CudaMemory implements MappedBuffer, HostWaitRelease.Word {

    private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int FLAGS = JCudaDriver.CU_MEMHOSTALLOC_PORTABLE | JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP;

    private final ByteBuffer buffer;
    /** Gives the host memory back once no work can use it: frees an allocation, or releases a shared part. */
    private final Runnable free;

    private CudaMappedBuffer(CudaBackend backend, ByteBuffer buffer, long deviceAddress, Runnable free) {
        super(backend, -1, deviceAddress, buffer.capacity());
        this.buffer = buffer;
        this.free = free;
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
            ByteBuffer view = host.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
            CudaMappedBuffer b = new CudaMappedBuffer(backend, view, NativePointers.address(device), () -> {
                context.bind();
                JCudaDriver.cuMemFreeHost(host);
            });
            b.zero();
            return b;
        } catch (RuntimeException ex) {
            JCudaDriver.cuMemFreeHost(host);
            throw ex;
        }
    }

    /**
     * The {@code part} at {@code offset} of a shared {@code mapping}, addressed by {@code context}'s device at the
     * mapping's registered address plus {@code offset}; its contents are the mapping's (not zeroed).
     */
    static CudaMappedBuffer shared(CudaBackend backend, DeviceContext context, SharedRegistrations registrations,
            ByteBuffer mapping, long offset, ByteBuffer part) {
        long base = registrations.acquire(mapping, context);
        return new CudaMappedBuffer(backend, part, base + offset, () -> registrations.release(mapping));
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
    public long raiseTo(long offset, long value) {
        int i = index(offset);
        for (;;) {
            long seen = (long) WORDS.getVolatile(buffer, i);
            if (seen >= value || WORDS.compareAndSet(buffer, i, seen, value)) {
                return seen;
            }
        }
    }

    @Override
    public ByteBuffer byteBuffer() {
        return buffer;
    }

    @Override
    void free() {
        free.run();
    }

    @Override
    public String toString() {
        return "CudaMappedBuffer[0x" + Long.toHexString(address()) + ", " + bytes() + " B]";
    }
}

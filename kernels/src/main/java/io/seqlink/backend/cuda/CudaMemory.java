package io.seqlink.backend.cuda;

import io.seqlink.backend.Memory;

/**
 * Memory of the CUDA backend: device memory or pinned, host-mapped memory. Freeing waits for the
 * work of every device that may still use it (the backend's contexts), so closing memory that a
 * kernel in flight reads is safe, if slow.
 */
abstract sealed class CudaMemory implements Memory permits CudaDeviceBuffer, CudaMappedBuffer {

    final CudaBackend backend;
    private final int owner;
    private final long address;
    private final long bytes;
    private volatile boolean closed;

    CudaMemory(CudaBackend backend, int owner, long address, long bytes) {
        if ((address & (ALIGNMENT - 1)) != 0) {
            throw new IllegalStateException("the driver returned an address 0x" + Long.toHexString(address)
                    + " that is not " + ALIGNMENT + "-byte aligned");
        }
        this.backend = backend;
        this.owner = owner;
        this.address = address;
        this.bytes = bytes;
    }

    @Override
    public int ownerDevice() {
        return owner;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    boolean isClosed() {
        return closed;
    }

    /** The device address of byte {@code offset}, after checking {@code length} bytes fit. */
    long at(long offset, long length, String argument) {
        if (closed) {
            throw new IllegalStateException(argument + ": memory at 0x" + Long.toHexString(address) + " was freed");
        }
        if (offset < 0 || length < 0 || offset + length > bytes) {
            throw new IndexOutOfBoundsException(argument + ": range [" + offset + ", " + (offset + length)
                    + ") is outside the " + bytes + " bytes at 0x" + Long.toHexString(address));
        }
        return address + offset;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        backend.release(this);
    }

    /** Frees the native memory; called by the backend once no work can use it. */
    abstract void free();
}

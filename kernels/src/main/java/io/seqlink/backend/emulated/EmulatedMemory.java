package io.seqlink.backend.emulated;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.Memory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Emulated memory: an off-heap region (a direct buffer on a 128-byte boundary) with a synthetic
 * device address. Words are accessed through a {@link VarHandle} view so every access names its
 * ordering, exactly where the CUDA kernels name theirs.
 */
abstract sealed class EmulatedMemory implements Memory permits EmulatedDeviceBuffer, EmulatedMappedBuffer {

    /** 64-bit words of a direct buffer, native (little-endian on every supported host) order. */
    static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** Largest single region: a direct buffer is indexed by int, and one line more is allocated to align it. */
    static final long MAX_REGION_BYTES = (Integer.MAX_VALUE - (long) ALIGNMENT) & -ALIGNMENT;

    final ByteBuffer buffer;
    private final int owner;
    private final long address;
    private final long bytes;
    private final EmulatedBackend backend;
    private volatile boolean closed;

    EmulatedMemory(EmulatedBackend backend, int owner, long address, long bytes) {
        if (bytes < 1 || bytes > MAX_REGION_BYTES) {
            throw new IllegalArgumentException("bytes must be between 1 and " + MAX_REGION_BYTES
                    + " on the emulated backend (one off-heap region), was " + bytes);
        }
        this.backend = backend;
        this.owner = owner;
        this.address = address;
        this.bytes = bytes;
        // alignedSlice rounds both ends to the alignment: round the size up so the slice holds it all.
        long rounded = (bytes + ALIGNMENT - 1) & -ALIGNMENT;
        ByteBuffer raw;
        try {
            raw = ByteBuffer.allocateDirect((int) (rounded + ALIGNMENT));
        } catch (OutOfMemoryError ex) {
            // as cuMemAlloc answers an exhausted device: a status, not an Error that would end the caller's thread
            throw new DeviceException("CUDA_ERROR_OUT_OF_MEMORY", owner < 0 ? "cuMemHostAlloc" : "cuMemAlloc", owner, false,
                    "the emulated backend keeps device and pinned memory in the JVM's direct memory, which cannot hold "
                    + bytes + " more bytes (" + ex.getMessage() + "); raise -XX:MaxDirectMemorySize or use smaller channels");
        }
        this.buffer = raw.alignedSlice(ALIGNMENT).limit((int) bytes).slice().order(ByteOrder.nativeOrder());
    }

    /**
     * Over {@code region} (a direct buffer starting on a 128-byte boundary, such as a slice of a mapped file at a
     * multiple of 128): the same word accesses, on memory another process may map as well.
     */
    EmulatedMemory(EmulatedBackend backend, int owner, long address, ByteBuffer region) {
        if (!region.isDirect() || region.capacity() < 1 || region.alignmentOffset(0, ALIGNMENT) != 0) {
            throw new IllegalArgumentException("a shared region must be a direct buffer of at least one byte starting on a "
                    + ALIGNMENT + "-byte boundary");
        }
        this.backend = backend;
        this.owner = owner;
        this.address = address;
        this.bytes = region.capacity();
        this.buffer = region.slice().order(ByteOrder.nativeOrder());
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

    EmulatedBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            backend.released(this);
        }
    }

    final int index(long offset, long length) {
        if (closed) {
            throw new IllegalStateException("memory at 0x" + Long.toHexString(address) + " was freed");
        }
        if (offset < 0 || length < 0 || offset + length > bytes) {
            throw new IndexOutOfBoundsException("access [" + offset + ", " + (offset + length) + ") outside "
                    + bytes + " bytes at 0x" + Long.toHexString(address));
        }
        return (int) offset;
    }

    long getPlainWord(long offset) {
        return (long) WORDS.get(buffer, index(offset, 8));
    }

    long getAcquireWord(long offset) {
        return (long) WORDS.getAcquire(buffer, index(offset, 8));
    }

    void setPlainWord(long offset, long value) {
        WORDS.set(buffer, index(offset, 8), value);
    }

    void setReleaseWord(long offset, long value) {
        WORDS.setRelease(buffer, index(offset, 8), value);
    }

    long getAndAddReleaseWord(long offset, long delta) {
        return (long) WORDS.getAndAddRelease(buffer, index(offset, 8), delta);
    }

    long getAndAddWord(long offset, long delta) {
        return (long) WORDS.getAndAdd(buffer, index(offset, 8), delta);
    }
}

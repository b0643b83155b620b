package io.seqlink.backend;

/**
 * A block of memory a device can address: device memory ({@link DeviceBuffer}) or pinned host
 * memory mapped into the device address space ({@link MappedBuffer}).
 *
 * <p>Every allocation starts on a 128-byte boundary, so each control word placed at a multiple of
 * 128 owns its cache line (NCCL's {@code CACHE_LINE_SIZE}); words written by different devices
 * never share a line.
 */
public interface Memory extends AutoCloseable {

    /** The alignment of every allocation, in bytes. */
    int ALIGNMENT = 128;

    /** The device that owns the memory, or {@code -1} for host memory. */
    int ownerDevice();

    /** The address devices use for this memory (a device pointer). */
    long address();

    /** Size in bytes. */
    long bytes();

    /** Frees the memory. Idempotent. */
    @Override
    void close();
}

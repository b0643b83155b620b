package io.seqlink.backend;

/** One GPU (or one emulated device) of a {@link Backend}. */
public interface Device {

    int ordinal();

    /** The device's name as the driver reports it, e.g. {@code NVIDIA H200}. */
    String name();

    /** Its streaming multiprocessors, for sizing the grids of user kernels (emulated devices report a few). */
    int multiprocessors();

    /** Device memory, 128-byte aligned, zero-filled. */
    DeviceBuffer allocate(long bytes);

    /** Pinned host memory mapped into the device address space, 128-byte aligned, zero-filled. */
    MappedBuffer allocateMapped(long bytes);

    /**
     * Host memory another process maps too (a shared-memory file, {@code FileChannel.map}), made addressable by
     * this device: the {@code bytes} at {@code offset} of {@code region}, the whole mapping (a direct buffer whose
     * start is page-aligned, as a mapping at file position 0 is). Pass the same {@code region} object for every part
     * of one mapping: a backend may register the mapping once for all its parts (the CUDA backend pins and maps its
     * pages, {@code cuMemHostRegister}, which a page may be only once). The returned buffer does not own the mapping:
     * closing it only ends this device's use of that part. Any thread.
     *
     * @param offset a multiple of 128 within {@code region}
     * @throws UnsupportedOperationException when the backend cannot share host memory across processes
     * @throws io.seqlink.backend.DeviceException when the driver refuses to register the mapping
     */
    default MappedBuffer mapShared(java.nio.ByteBuffer region, long offset, long bytes) {
        throw new UnsupportedOperationException("device " + ordinal() + " of this backend cannot map memory shared with "
                + "another process");
    }

    /**
     * The part of a shared mapping {@link #mapShared} maps, in native byte order, after checking the arguments every
     * backend's {@code mapShared} checks (a direct region, an offset that is a multiple of 128, the part inside it).
     *
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    static java.nio.ByteBuffer sharedPart(java.nio.ByteBuffer region, long offset, long bytes) {
        if (!region.isDirect()) {
            throw new IllegalArgumentException("a shared region must be a direct buffer (a FileChannel mapping), was " + region);
        }
        if ((offset & 127) != 0 || offset < 0 || bytes < 1 || offset + bytes > region.capacity()) {
            throw new IllegalArgumentException("part [" + offset + ", " + (offset + bytes) + ") of a shared region of "
                    + region.capacity() + " bytes: the offset must be a multiple of 128 and the part inside the region");
        }
        return region.slice((int) offset, (int) bytes).order(java.nio.ByteOrder.nativeOrder());
    }

    /** A new non-blocking stream. */
    DeviceStream newStream(String name);

    /**
     * Stores one 64-bit word into this device's memory from the host, outside every stream's order, and returns
     * once the store is done: a kernel launched after the return (on any stream, on any device, by any thread
     * ordered after it) reads it or a later value. No stream's queued work, an armed wait included, can hold it
     * back. For the rare host-written word a kernel must read cheaply (an armed round's cancel mark, read by every
     * block of a round kernel): a read of device memory instead of one uncached read of pinned host memory per
     * block. Costs a round trip to the device (microseconds); never on a frame's path.
     *
     * <p>Any thread; stores from several threads land in some order (a caller that needs a monotonic word
     * serialises its stores).
     *
     * @param offset a multiple of 8 within {@code buffer}, which this device allocated
     * @throws DeviceException when the device fails the store
     */
    void storeWord(DeviceBuffer buffer, long offset, long value);

    /** Free and total device memory in bytes, as the driver reports them ({@code cuMemGetInfo}). */
    MemoryInfo memoryInfo();

    /** Free and total memory of a device. */
    record MemoryInfo(long freeBytes, long totalBytes) {
    }
}

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

    /** A new non-blocking stream. */
    DeviceStream newStream(String name);

    /** Free and total device memory in bytes, as the driver reports them ({@code cuMemGetInfo}). */
    MemoryInfo memoryInfo();

    /** Free and total memory of a device. */
    record MemoryInfo(long freeBytes, long totalBytes) {
    }
}

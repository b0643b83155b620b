package io.seqlink.backend.emulated;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One emulated device: its memory, its streams, which peers' memory it may address, and its fault
 * state. A sticky failure (failed launch, lost device) makes every later operation on it fail, as a
 * CUDA context does.
 */
final class EmulatedDevice implements Device {

    /** Emulated devices report this much memory. */
    static final long TOTAL_MEMORY = 16L << 30;

    private final EmulatedBackend backend;
    private final int ordinal;
    private final EmulatedTopology topology;
    private final boolean[] peerEnabled;
    private final Set<EmulatedStream> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong allocated = new AtomicLong();
    private final AtomicInteger pendingLaunchFailures = new AtomicInteger();
    /** Frames the publish steps' host mirror runs ahead of publish_seq (EmulatedFaults.runMirrorAhead). */
    private volatile long mirrorLead;
    private volatile @Nullable DeviceException failure;

    EmulatedDevice(EmulatedBackend backend, int ordinal, EmulatedTopology topology) {
        this.backend = backend;
        this.ordinal = ordinal;
        this.topology = topology;
        this.peerEnabled = new boolean[topology.deviceCount()];
        this.peerEnabled[ordinal] = true;
    }

    @Override
    public int ordinal() {
        return ordinal;
    }

    @Override
    public String name() {
        return "Emulated GPU " + ordinal;
    }

    /** Emulated devices report this many multiprocessors (grid sizes only matter on a GPU). */
    static final int MULTIPROCESSORS = 4;

    @Override
    public int multiprocessors() {
        return MULTIPROCESSORS;
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        checkUsable();
        EmulatedDeviceBuffer buffer = new EmulatedDeviceBuffer(backend, ordinal, backend.nextAddress(ordinal, bytes), bytes);
        allocated.addAndGet(bytes);
        backend.track(buffer);
        return buffer;
    }

    @Override
    public MappedBuffer allocateMapped(long bytes) {
        checkUsable();
        EmulatedMappedBuffer buffer = new EmulatedMappedBuffer(backend, backend.nextAddress(-1, bytes), bytes);
        backend.track(buffer);
        return buffer;
    }

    /** {@inheritDoc} The emulated device addresses host memory as it is: the region's words are the buffer's own. */
    @Override
    public MappedBuffer mapShared(ByteBuffer region, long offset, long bytes) {
        checkUsable();
        ByteBuffer part = Device.sharedPart(region, offset, bytes);
        EmulatedMappedBuffer buffer = new EmulatedMappedBuffer(backend, backend.nextAddress(-1, part.capacity()), part, region);
        backend.track(buffer);
        return buffer;
    }

    @Override
    public DeviceStream newStream(String name) {
        checkUsable();
        EmulatedStream stream = new EmulatedStream(this, name, topology);
        streams.add(stream);
        return stream;
    }

    /** A release store into the buffer's word: what a kernel's acquire read or a later launch then sees. */
    @Override
    public void storeWord(DeviceBuffer buffer, long offset, long value) {
        checkUsable();
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("offset must be a multiple of 8 (a 64-bit word), was " + offset);
        }
        own(buffer).setReleaseWord(offset, value);
    }

    @Override
    public MemoryInfo memoryInfo() {
        return new MemoryInfo(TOTAL_MEMORY - allocated.get(), TOTAL_MEMORY);
    }

    void freed(EmulatedDeviceBuffer buffer) {
        allocated.addAndGet(-buffer.bytes());
    }

    void released(EmulatedStream stream) {
        streams.remove(stream);
    }

    Set<EmulatedStream> streams() {
        return streams;
    }

    void enablePeer(int owner) {
        peerEnabled[owner] = true;
    }

    // ---- faults ------------------------------------------------------------------------------

    @Nullable DeviceException failure() {
        return failure;
    }

    void checkUsable() {
        DeviceException f = failure;
        if (f != null) {
            throw f;
        }
    }

    void markFailed(DeviceException ex) {
        if (failure == null) {
            failure = ex;
        }
    }

    void failNextLaunches(int count) {
        pendingLaunchFailures.addAndGet(count);
    }

    /** How far ahead of publish_seq the publish steps of this device store their host mirror (an injected fault; 0: none). */
    long mirrorLead() {
        return mirrorLead;
    }

    void mirrorLead(long frames) {
        mirrorLead = frames;
    }

    void lose() {
        markFailed(new DeviceException("CUDA_ERROR_DEVICE_UNAVAILABLE", "device", ordinal, true, "the device was lost (injected fault)"));
    }

    /** Called by every kernel at its start: applies an injected launch failure. */
    void beforeLaunch(String kernel) {
        checkUsable();
        if (pendingLaunchFailures.get() > 0 && pendingLaunchFailures.getAndDecrement() > 0) {
            throw new DeviceException("CUDA_ERROR_LAUNCH_FAILED", "cuLaunchKernel(" + kernel + ")", ordinal, true, "injected fault");
        }
    }

    // ---- memory access -----------------------------------------------------------------------

    /** Casts memory of this backend or explains why it is not. */
    EmulatedMemory own(Memory memory) {
        if (memory instanceof EmulatedMemory m && m.backend() == backend) {
            return m;
        }
        throw new IllegalArgumentException("memory " + memory + " does not belong to this emulated backend");
    }

    /**
     * A kernel on this device is about to load or store {@code memory}: fails like an illegal address
     * when the device may not address it, and spends the link's injected latency when it is remote.
     */
    void access(EmulatedMemory memory, String kernel) {
        int owner = memory.ownerDevice();
        if (owner < 0 || owner == ordinal) {
            return;
        }
        backend.device(owner).checkRemoteUsable(ordinal, kernel);
        if (!peerEnabled[owner] || topology.mode(ordinal, owner) == LinkMode.HOST_ONLY) {
            throw new DeviceException("CUDA_ERROR_ILLEGAL_ADDRESS", kernel, ordinal, true,
                    "device " + ordinal + " addressed memory of device " + owner + " without peer access");
        }
        spin(topology.latencyNanos(ordinal, owner));
    }

    /** A copy engine moving data from or to {@code memory}: any memory can be copied, remote copies pay latency. */
    void dma(EmulatedMemory memory) {
        int owner = memory.ownerDevice();
        if (owner >= 0 && owner != ordinal) {
            backend.device(owner).checkRemoteUsable(ordinal, "cuMemcpyPeerAsync");
            spin(topology.latencyNanos(ordinal, owner));
        }
    }

    private void checkRemoteUsable(int accessor, String call) {
        DeviceException f = failure;
        if (f != null) {
            throw new DeviceException(f.errorName(), call, accessor, false, "memory of device " + ordinal + " is unreachable");
        }
    }

    /** Whether a remote read-modify-write from this device to {@code owner}'s memory is atomic. */
    boolean nativeAtomics(int owner) {
        LinkMode mode = topology.mode(ordinal, owner);
        return mode == LinkMode.NVLINK || mode == LinkMode.NVLINK_PROXIED;
    }

    LinkMode mode(int owner) {
        return topology.mode(ordinal, owner);
    }

    static void spin(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    void copy(EmulatedMemory src, long srcOffset, EmulatedMemory dst, long dstOffset, long bytes) {
        dma(src);
        dma(dst);
        rawCopy(src, srcOffset, dst, dstOffset, bytes);
    }

    /** Moves bytes with no access check or latency: for kernels that already paid both for the whole range. */
    static void rawCopy(EmulatedMemory src, long srcOffset, EmulatedMemory dst, long dstOffset, long bytes) {
        int s = src.index(srcOffset, bytes);
        int d = dst.index(dstOffset, bytes);
        dst.buffer.put(d, src.buffer, s, (int) bytes);
    }

    /** {@code cuStreamWriteValue64} with its default memory barrier: a release store. */
    void writeValue(EmulatedMemory dst, long offset, long value) {
        dma(dst);
        dst.setReleaseWord(offset, value);
    }

    @Override
    public String toString() {
        return name();
    }
}

package io.seqlink.backend.emulated;

import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.LinkAttributes;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbePlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pure-Java backend: the same protocol as the CUDA backend over off-heap memory, with ordered
 * command queues as streams, a simulated topology and fault injection ({@link #faults()}). Used
 * where there is no GPU—CI, laptops, the sample's default—and by the protocol's own tests.
 */
public final class EmulatedBackend implements Backend {

    /** Synthetic device addresses: device {@code d} allocates above {@code (d + 1) << 44}, host memory above {@code 0x7f << 40}. */
    private static final long HOST_BASE = 0x7fL << 40;

    private final EmulatedTopology topology;
    private final EmulatedDevice[] devices;
    private final AtomicLong[] nextAddress;
    private final Set<EmulatedMemory> live = ConcurrentHashMap.newKeySet();
    private final EmulatedFaults faults;
    private volatile boolean closed;

    public EmulatedBackend(EmulatedTopology topology) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.devices = new EmulatedDevice[topology.deviceCount()];
        this.nextAddress = new AtomicLong[topology.deviceCount() + 1];
        for (int d = 0; d < devices.length; d++) {
            devices[d] = new EmulatedDevice(this, d, topology);
            nextAddress[d] = new AtomicLong((d + 1L) << 44);
        }
        nextAddress[devices.length] = new AtomicLong(HOST_BASE);
        this.faults = new EmulatedFaults(this);
    }

    @Override
    public BackendKind kind() {
        return BackendKind.EMULATED;
    }

    @Override
    public String description() {
        return "emulated backend, " + devices.length + " device(s), " + topology.streamMode().name().toLowerCase() + " streams";
    }

    public EmulatedTopology topology() {
        return topology;
    }

    /** Fault injection: stall streams, fail launches, lose devices. */
    public EmulatedFaults faults() {
        return faults;
    }

    @Override
    public int deviceCount() {
        return devices.length;
    }

    @Override
    public EmulatedDevice device(int ordinal) {
        if (ordinal < 0 || ordinal >= devices.length) {
            throw new IllegalArgumentException("device must be between 0 and " + (devices.length - 1)
                    + " (the emulated backend has " + devices.length + " device(s)), was " + ordinal);
        }
        checkOpen();
        return devices[ordinal];
    }

    /** Every region is one direct buffer: the limits are the JVM's. */
    @Override
    public AllocationLimits limits() {
        long max = DirectMemory.max();
        return new AllocationLimits(EmulatedMemory.MAX_REGION_BYTES, EmulatedMemory.MAX_REGION_BYTES,
                Math.max(0, max - DirectMemory.used()), max, "the JVM's direct memory (the emulated backend)");
    }

    @Override
    public LinkAttributes linkAttributes(int accessor, int owner) {
        device(accessor);
        device(owner);
        if (accessor == owner) {
            return LinkAttributes.self(accessor);
        }
        LinkMode mode = topology.mode(accessor, owner);
        return switch (mode) {
            case NVLINK, NVLINK_PROXIED -> new LinkAttributes(accessor, owner, true, true, 0);
            case PCIE_PEER -> new LinkAttributes(accessor, owner, true, false, 1);
            case HOST_ONLY -> new LinkAttributes(accessor, owner, false, false, 2);
        };
    }

    @Override
    public void enablePeerAccess(int accessor, int owner) {
        EmulatedDevice d = device(accessor);
        device(owner);
        if (accessor == owner) {
            return;
        }
        if (topology.mode(accessor, owner) == LinkMode.HOST_ONLY) {
            throw new DeviceException("CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "cuCtxEnablePeerAccess", accessor, false,
                    "device " + accessor + " cannot address memory of device " + owner);
        }
        d.enablePeer(owner);
    }

    @Override
    public ProbeMeasurement probe(int producer, int consumer, ProbePlan plan) {
        return new EmulatedProbe(this, device(producer), device(consumer), plan).run();
    }

    long nextAddress(int device, long bytes) {
        AtomicLong counter = nextAddress[device < 0 ? devices.length : device];
        return counter.getAndAdd((bytes + 0xFFFF) & ~0xFFFFL);
    }

    void track(EmulatedMemory memory) {
        live.add(memory);
    }

    void released(EmulatedMemory memory) {
        if (live.remove(memory) && memory instanceof EmulatedDeviceBuffer db) {
            devices[db.ownerDevice()].freed(db);
        }
    }

    /** Allocations not yet freed (for leak tests). */
    public int liveAllocations() {
        return live.size();
    }

    /** Bytes of pinned host memory allocated ({@code allocateMapped}) and not yet freed (for footprint tests). */
    public long liveMappedBytes() {
        long bytes = 0;
        for (EmulatedMemory m : live) {
            if (m instanceof EmulatedMappedBuffer b && b.sharedMapping == null) {
                bytes += b.bytes();
            }
        }
        return bytes;
    }

    /**
     * Bytes of the shared mappings a device addresses parts of now ({@code mapShared}), each mapping whole and once
     * however many of its parts are mapped: what the CUDA backend pins for them (for footprint tests).
     */
    public long liveSharedBytes() {
        Set<ByteBuffer> mappings = Collections.newSetFromMap(new IdentityHashMap<>());
        for (EmulatedMemory m : live) {
            if (m instanceof EmulatedMappedBuffer b && b.sharedMapping != null) {
                mappings.add(b.sharedMapping);
            }
        }
        return mappings.stream().mapToLong(ByteBuffer::capacity).sum();
    }

    /** Streams not yet closed, over all devices (for leak tests). */
    public int liveStreams() {
        int n = 0;
        for (EmulatedDevice d : devices) {
            n += d.streams().size();
        }
        return n;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the emulated backend is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        for (EmulatedDevice d : devices) {
            for (EmulatedStream s : new ArrayList<>(d.streams())) {
                s.resume();
                s.close();
            }
        }
        for (EmulatedMemory m : List.copyOf(live)) {
            m.close();
        }
        closed = true;
    }

    @Override
    public String toString() {
        return description() + " " + topology;
    }
}

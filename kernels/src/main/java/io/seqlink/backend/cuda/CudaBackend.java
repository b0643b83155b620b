package io.seqlink.backend.cuda;

import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.KernelsMissingException;
import io.seqlink.backend.LinkAttributes;
import io.seqlink.backend.Memory;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbePlan;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import jcuda.driver.CUdevice_P2PAttribute;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CUDA backend: the driver API through JCuda. One primary context per device (opened on first
 * use), the seqlink fat binary loaded into each, every allocation and stream tracked so
 * {@link #close()} frees them all. JCuda types stay inside this package.
 */
final class CudaBackend implements Backend {

    private static final Logger log = LoggerFactory.getLogger(CudaBackend.class);

    /** The fat binary built by {@code build-kernels.sh}. */
    static final String FATBIN_RESOURCE = "io/seqlink/kernels/seqlink.fatbin";

    private final int deviceCount;
    private final byte[] fatbin;
    private final CudaDevice[] devices;
    private final String driverVersion;
    private final Set<CudaMemory> liveMemory = ConcurrentHashMap.newKeySet();
    private final Set<CudaStream> liveStreams = ConcurrentHashMap.newKeySet();
    private final Set<Long> peerEnabled = ConcurrentHashMap.newKeySet();
    private final SharedRegistrations sharedRegistrations = new SharedRegistrations();
    private final HostWaitRelease hostWaitRelease = new HostWaitRelease();
    private volatile boolean closed;

    CudaBackend(int deviceCount) {
        this.fatbin = loadFatbin();
        Cu.check(JCudaDriver.cuInit(0), "cuInit", -1);
        int[] version = new int[1];
        JCudaDriver.cuDriverGetVersion(version);
        this.driverVersion = DriverProbe.version(version[0]);
        this.deviceCount = deviceCount;
        this.devices = new CudaDevice[deviceCount];
    }

    private static byte[] loadFatbin() {
        ClassLoader cl = CudaBackend.class.getClassLoader();
        try (InputStream in = cl == null ? ClassLoader.getSystemResourceAsStream(FATBIN_RESOURCE) : cl.getResourceAsStream(FATBIN_RESOURCE)) {
            if (in == null) {
                throw new KernelsMissingException(FATBIN_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException ex) {
            throw new KernelsMissingException(FATBIN_RESOURCE + " (unreadable: " + ex.getMessage() + ")");
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.CUDA;
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("cuda backend, driver ").append(driverVersion).append(", ")
                .append(deviceCount).append(" device(s)");
        for (int d = 0; d < deviceCount; d++) {
            sb.append(d == 0 ? ": " : ", ").append(d).append('=').append(device(d).name());
        }
        return sb.toString();
    }

    @Override
    public int deviceCount() {
        return deviceCount;
    }

    @Override
    public synchronized CudaDevice device(int ordinal) {
        if (ordinal < 0 || ordinal >= deviceCount) {
            throw new IllegalArgumentException("device must be between 0 and " + (deviceCount - 1)
                    + " (the driver reports " + deviceCount + " device(s)), was " + ordinal);
        }
        checkOpen();
        if (devices[ordinal] == null) {
            devices[ordinal] = new CudaDevice(this, new DeviceContext(ordinal, fatbin));
            log.debug("seqlink cuda: opened {}", devices[ordinal]);
        }
        return devices[ordinal];
    }

    /** Device memory is bounded by what each device has free; pinned memory by its one-buffer host view. */
    @Override
    public AllocationLimits limits() {
        return new AllocationLimits(Long.MAX_VALUE, AllocationLimits.MAX_BUFFER_BYTES, Long.MAX_VALUE, Long.MAX_VALUE,
                "device memory and pinned host memory (the cuda backend)");
    }

    @Override
    public LinkAttributes linkAttributes(int accessor, int owner) {
        CudaDevice a = device(accessor);
        CudaDevice o = device(owner);
        if (accessor == owner) {
            return LinkAttributes.self(accessor);
        }
        int access = p2p(CUdevice_P2PAttribute.CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, a, o);
        int atomics = p2p(CUdevice_P2PAttribute.CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, a, o);
        int rank = p2p(CUdevice_P2PAttribute.CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, a, o);
        return new LinkAttributes(accessor, owner, access != 0, atomics != 0, rank);
    }

    private int p2p(int attribute, CudaDevice src, CudaDevice dst) {
        int[] v = new int[1];
        Cu.check(JCudaDriver.cuDeviceGetP2PAttribute(v, attribute, src.context().device(), dst.context().device()),
                "cuDeviceGetP2PAttribute(" + CUdevice_P2PAttribute.stringFor(attribute) + ")", src.ordinal());
        return v[0];
    }

    @Override
    public void enablePeerAccess(int accessor, int owner) {
        CudaDevice a = device(accessor);
        CudaDevice o = device(owner);
        if (accessor == owner || peerEnabled.contains(pairKey(accessor, owner))) {
            return;
        }
        a.context().bind();
        int r = JCudaDriver.cuCtxEnablePeerAccess(o.context().context(), 0);
        if (r != CUresult.CUDA_SUCCESS && r != CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
            throw Cu.error(r, "cuCtxEnablePeerAccess", accessor, "device " + accessor + " -> memory of device " + owner);
        }
        peerEnabled.add(pairKey(accessor, owner));
    }

    private static long pairKey(int accessor, int owner) {
        return ((long) accessor << 32) | (owner & 0xFFFFFFFFL);
    }

    @Override
    public ProbeMeasurement probe(int producer, int consumer, ProbePlan plan) {
        checkOpen();
        return new CudaProbe(this, device(producer), device(consumer), plan).run();
    }

    // ---- resources --------------------------------------------------------------------------------

    /** The shared-memory mappings this backend registered for its devices ({@code Device.mapShared}). */
    SharedRegistrations sharedRegistrations() {
        return sharedRegistrations;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the CUDA backend is closed");
        }
    }

    /** Casts memory of this backend or explains why it is not. */
    CudaMemory own(Memory memory, String argument) {
        if (memory instanceof CudaMemory m && m.backend == this) {
            return m;
        }
        throw new IllegalArgumentException(argument + ": " + memory + " was not allocated by this CUDA backend; "
                + "allocate it with backend.device(n).allocate(...) or allocateMapped(...)");
    }

    <T extends CudaMemory> T track(T memory) {
        liveMemory.add(memory);
        return memory;
    }

    CudaStream track(CudaStream stream) {
        liveStreams.add(stream);
        return stream;
    }

    void released(CudaStream stream) {
        liveStreams.remove(stream);
    }

    /**
     * Frees memory once no work can use it: every open context is synchronised first (a kernel on any
     * device may read it through peer access or a mapping). Errors of that work were reported where
     * it was enqueued; here they only mean the memory is freed without waiting.
     */
    void release(CudaMemory memory) {
        if (!liveMemory.remove(memory)) {
            return;
        }
        withWaitsReleased(null, () -> {
            synchronizeOpenDevices("while memory was freed");
            memory.free();
            return null;
        });
    }

    /**
     * Runs {@code call}, which waits for the queued work of {@code context} ({@code null}: of every context): a context
     * synchronisation, or loading a module. The streams' waits on pinned host memory are released first, and one
     * recorded while the call runs as it is recorded ({@link HostWaitRelease}), so none holds the call. Any thread.
     */
    <T> T withWaitsReleased(@Nullable DeviceContext context, Supplier<T> call) {
        // a view, walked once the call is counted: a stream opened after the walk began records its wait after that
        return hostWaitRelease.around(() -> liveStreams.stream().filter(s -> context == null || s.context() == context)
                .map(CudaStream::pendingWait).iterator(), call);
    }

    /** Where this backend's streams record their waits on pinned host memory. */
    HostWaitRelease hostWaitRelease() {
        return hostWaitRelease;
    }

    /**
     * Synchronises every open device's context; an error a device reports is logged (at debug, {@code when} saying where)
     * and ends nothing: the caller is releasing memory or closing. Under {@link #withWaitsReleased}.
     */
    private void synchronizeOpenDevices(String when) {
        for (CudaDevice d : openDevices()) {
            try {
                d.context().synchronize();
            } catch (DeviceException ex) {
                log.debug("seqlink cuda: device {} reported {} {}", d.ordinal(), ex.errorName(), when);
            }
        }
    }

    private synchronized List<CudaDevice> openDevices() {
        List<CudaDevice> open = new ArrayList<>();
        for (CudaDevice d : devices) {
            if (d != null) {
                open.add(d);
            }
        }
        return open;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // closing a stream and synchronising a context wait for queued work
        withWaitsReleased(null, () -> {
            for (CudaStream s : new ArrayList<>(liveStreams)) {
                try {
                    s.close();
                } catch (RuntimeException ex) {
                    log.debug("seqlink cuda: closing {} failed: {}", s, ex.toString());
                }
            }
            synchronizeOpenDevices("at close");
            return null;
        });
        for (CudaMemory m : new ArrayList<>(liveMemory)) {
            liveMemory.remove(m);
            try {
                m.free();
            } catch (RuntimeException ex) {
                log.debug("seqlink cuda: freeing {} failed: {}", m, ex.toString());
            }
        }
        for (CudaDevice d : openDevices()) {
            d.context().close();
        }
        log.info("seqlink cuda backend closed");
    }

    @Override
    public String toString() {
        return "CudaBackend[driver " + driverVersion + ", " + deviceCount + " device(s)]";
    }
}

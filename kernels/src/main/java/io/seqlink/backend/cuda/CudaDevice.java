package io.seqlink.backend.cuda;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import java.nio.ByteBuffer;
import jcuda.driver.JCudaDriver;
import org.jspecify.annotations.Nullable;

/** One GPU of the {@link CudaBackend}. */
final class CudaDevice implements Device {

    private final CudaBackend backend;
    private final DeviceContext context;
    /** Streams open on this device: more than {@link #HARDWARE_QUEUES} share hardware queues. */
    private final java.util.concurrent.atomic.AtomicInteger openStreams = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The device's hardware work queues a context's streams are spread over ({@code CUDA_DEVICE_MAX_CONNECTIONS},
     * default 8): a stream wait holds its queue, and so every stream aliased onto it.
     */
    static final int HARDWARE_QUEUES = hardwareQueues(System.getenv("CUDA_DEVICE_MAX_CONNECTIONS"));

    static int hardwareQueues(@Nullable String setting) {
        try {
            return setting == null ? 8 : Math.max(1, Math.min(32, Integer.parseInt(setting.trim())));
        } catch (NumberFormatException ex) {
            return 8;
        }
    }

    /**
     * The stream {@link #storeWord} writes on, made before the device's first other stream: the first stream of a
     * context takes a hardware queue of its own, so no armed wait (made only while {@link #streamsUnaliased}) sits
     * in front of its stores. Counted among the open streams.
     */
    private @Nullable CudaStream wordStream;

    CudaDevice(CudaBackend backend, DeviceContext context) {
        this.backend = backend;
        this.context = context;
    }

    DeviceContext context() {
        return context;
    }

    @Override
    public int ordinal() {
        return context.ordinal();
    }

    @Override
    public String name() {
        return context.name();
    }

    @Override
    public int multiprocessors() {
        return context.multiprocessors();
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        backend.checkOpen();
        return backend.track(CudaDeviceBuffer.allocate(backend, context, bytes));
    }

    @Override
    public MappedBuffer allocateMapped(long bytes) {
        backend.checkOpen();
        return backend.track(CudaMappedBuffer.allocate(backend, context, bytes));
    }

    /**
     * {@inheritDoc} The mapping is registered with the driver once ({@code cuMemHostRegister}, portable and mapped) for
     * all its parts, and unregistered when its last part is freed; devices then address the part over the link as they
     * do pinned memory this backend allocated.
     */
    @Override
    public MappedBuffer mapShared(ByteBuffer region, long offset, long bytes) {
        backend.checkOpen();
        ByteBuffer part = Device.sharedPart(region, offset, bytes);
        return backend.track(CudaMappedBuffer.shared(backend, context, backend.sharedRegistrations(), region, offset, part));
    }

    @Override
    public DeviceStream newStream(String name) {
        backend.checkOpen();
        wordStream();
        CudaStream stream = new CudaStream(backend, this, name);
        openStreams.incrementAndGet();
        return backend.track(stream);
    }

    private synchronized CudaStream wordStream() {
        CudaStream stream = wordStream;
        if (stream == null) {
            stream = new CudaStream(backend, this, "seqlink-device-" + ordinal() + "-word-stores");
            openStreams.incrementAndGet();
            wordStream = backend.track(stream);
        }
        return stream;
    }

    /** A stream write of the word on the device's word stream, then a synchronize of that stream alone. */
    @Override
    public void storeWord(DeviceBuffer buffer, long offset, long value) {
        backend.checkOpen();
        CudaStream stream = wordStream();
        synchronized (stream) {
            stream.writeValue(buffer, offset, value);
            stream.synchronize();
        }
    }

    void streamClosed() {
        openStreams.decrementAndGet();
    }

    /** Whether each open stream has a hardware queue of its own (no more streams than {@link #HARDWARE_QUEUES}). */
    boolean streamsUnaliased() {
        return openStreams.get() <= HARDWARE_QUEUES;
    }

    @Override
    public MemoryInfo memoryInfo() {
        context.bind();
        long[] free = new long[1];
        long[] total = new long[1];
        Cu.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo", ordinal());
        return new MemoryInfo(free[0], total[0]);
    }

    @Override
    public String toString() {
        return "CudaDevice[" + ordinal() + ", " + name() + ", sm_" + context.computeCapability().replace(".", "") + "]";
    }
}

package io.seqlink.backend.cuda;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamWriteValue_flags;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;
import org.jspecify.annotations.Nullable;

/**
 * A non-blocking CUDA stream ({@code CU_STREAM_NON_BLOCKING}: no implicit ordering with the legacy
 * default stream). Operands are passed through reused pointer objects, so enqueueing allocates
 * nothing. Several threads may enqueue (a channel's producers share its stream): the methods are
 * synchronized, which costs nothing uncontended, and the driver orders the calls.
 */
final class CudaStream implements DeviceStream {

    private final CudaBackend backend;
    private final CudaDevice device;
    private final DeviceContext context;
    private final String name;
    private final CUstream stream = new CUstream();
    private final CUdeviceptr srcPointer = new CUdeviceptr();
    private final CUdeviceptr dstPointer = new CUdeviceptr();
    private final List<Runnable> releases = new ArrayList<>();
    /** Made on the first write without 64-bit stream memory operations. */
    private @Nullable KernelLaunch writeValueKernel;
    private volatile boolean closed;
    /** The last wait on pinned host memory, which the host can release by raising the word ({@link HostWaitRelease}). */
    private final HostWaitRelease.Pending pendingWait;

    CudaStream(CudaBackend backend, CudaDevice device, String name) {
        this.backend = backend;
        this.device = device;
        this.context = device.context();
        this.name = name;
        this.pendingWait = backend.hostWaitRelease().pending();
        context.bind();
        Cu.check(JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate",
                context.ordinal(), "stream '" + name + "'");
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public String name() {
        return name;
    }

    CUstream handle() {
        return stream;
    }

    DeviceContext context() {
        return context;
    }

    CudaBackend backend() {
        return backend;
    }

    CudaDevice cudaDevice() {
        return device;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("stream '" + name + "' on device " + context.ordinal() + " is closed");
        }
    }

    /** Runs {@code release} when the stream closes (binding scratch, parameter blocks). */
    synchronized void onClose(Runnable release) {
        releases.add(release);
    }

    @Override
    public synchronized void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long bytes) {
        checkOpen();
        long s = backend.own(src, "src").at(srcOffset, bytes, "copy src");
        long d = backend.own(dst, "dst").at(dstOffset, bytes, "copy dst");
        if (bytes == 0) {
            return;
        }
        context.bind();
        NativePointers.repoint(srcPointer, s);
        NativePointers.repoint(dstPointer, d);
        int r = JCudaDriver.cuMemcpyAsync(dstPointer, srcPointer, bytes, stream);
        if (r != CUresult.CUDA_SUCCESS) {
            throw Cu.error(r, "cuMemcpyAsync", context.ordinal(), bytes + " bytes on stream '" + name + "'");
        }
    }

    @Override
    public synchronized void writeValue(Memory dst, long offset, long value) {
        checkOpen();
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("offset must be a multiple of 8 (a 64-bit word), was " + offset);
        }
        long d = backend.own(dst, "dst").at(offset, 8, "writeValue dst");
        context.bind();
        if (context.streamMemOps64()) {
            NativePointers.repoint(dstPointer, d);
            int r = JCudaDriver.cuStreamWriteValue64(stream, dstPointer, value, CUstreamWriteValue_flags.CU_STREAM_WRITE_VALUE_DEFAULT);
            if (r != CUresult.CUDA_SUCCESS) {
                throw Cu.error(r, "cuStreamWriteValue64", context.ordinal(), "stream '" + name + "'");
            }
        } else {
            KernelLaunch k = writeValueKernel;
            if (k == null) {
                k = new KernelLaunch(context, "seqlink_write_value", 8, 8);
                writeValueKernel = k;
                releases.add(k::release);
            }
            k.params.putLong(0, d);
            k.params.putLong(1, value);
            k.launch(stream, 1, 1);
        }
    }

    /**
     * 64-bit stream memory operations, and no more streams open on the device than it has hardware queues
     * ({@code CUDA_DEVICE_MAX_CONNECTIONS}): beyond that streams share queues, and a wait would hold back
     * whatever stream shares this one's.
     */
    @Override
    public boolean canWaitValue() {
        return context.streamMemOps64() && device.streamsUnaliased();
    }

    @Override
    public synchronized void waitValueAtLeast(Memory memory, long offset, long value) {
        checkOpen();
        long d = backend.own(memory, "memory").at(offset, 8, "waitValue");
        if (!context.streamMemOps64()) {
            throw new UnsupportedOperationException("device " + context.ordinal() + " has no 64-bit stream memory operations");
        }
        context.bind();
        NativePointers.repoint(dstPointer, d);
        int r = JCudaDriver.cuStreamWaitValue64(stream, dstPointer, value, jcuda.driver.CUstreamWaitValue_flags.CU_STREAM_WAIT_VALUE_GEQ);
        if (r != CUresult.CUDA_SUCCESS) {
            throw Cu.error(r, "cuStreamWaitValue64", context.ordinal(), "stream '" + name + "'");
        }
        // only a wait that was enqueued, and only the last one: a wait on device memory leaves none to release
        pendingWait.record(memory instanceof CudaMappedBuffer mapped ? mapped : null, offset, value);
    }

    /**
     * This stream's last wait on pinned host memory ({@link HostWaitRelease}), which the backend releases around calls
     * that wait for a context's queued work ({@link CudaBackend#withWaitsReleased}).
     */
    HostWaitRelease.Pending pendingWait() {
        return pendingWait;
    }

    @Override
    public long waitsReleasedByBackend() {
        return pendingWait.released();
    }

    @Override
    public PublishKernel bindPublish(PublishBinding binding) {
        checkOpen();
        return new CudaPublishKernel(this, binding);
    }

    @Override
    public ConsumeKernel bindConsume(ConsumeBinding binding) {
        checkOpen();
        return new CudaConsumeKernel(this, binding);
    }

    @Override
    public AckKernel bindAck(AckBinding binding) {
        checkOpen();
        return new CudaAckKernel(this, binding);
    }

    @Override
    public KernelCall bindKernel(KernelModule module, String kernel, KernelParam... params) {
        checkOpen();
        return new CudaKernelCall(this, Objects.requireNonNull(module, "module"),
                Objects.requireNonNull(kernel, "kernel"), params);
    }

    @Override
    public void synchronize() {
        checkOpen();
        context.bind();
        Cu.check(JCudaDriver.cuStreamSynchronize(stream), "cuStreamSynchronize", context.ordinal(), "stream '" + name + "'");
    }

    @Override
    public boolean completed() {
        checkOpen();
        context.bind();
        int r = JCudaDriver.cuStreamQuery(stream);
        if (r == CUresult.CUDA_SUCCESS) {
            return true;
        }
        if (r == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        throw Cu.error(r, "cuStreamQuery", context.ordinal(), "stream '" + name + "'");
    }

    @Override
    public void close() {
        List<Runnable> toRelease;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toRelease = new ArrayList<>(releases);
            releases.clear();
        }
        pendingWait.release(); // a pending wait would hold the synchronisation below forever
        try {
            context.bind();
            JCudaDriver.cuStreamSynchronize(stream); // its error, if any, was reported where it happened
            JCudaDriver.cuStreamDestroy(stream);
        } finally {
            for (Runnable r : toRelease) {
                r.run();
            }
            backend.released(this);
            device.streamClosed();
        }
    }

    @Override
    public String toString() {
        return "CudaStream[" + context.ordinal() + "/" + name + "]";
    }
}

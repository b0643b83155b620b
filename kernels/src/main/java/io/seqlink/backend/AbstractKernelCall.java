package io.seqlink.backend;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every backend's {@link KernelCall} shares: the parameter kinds and their checks, the rule that
 * every parameter is set before the first launch, and the one-thread-at-a-time guard (ownership moves
 * by compare-and-set, never check-then-set; it is given up by a launch, by {@link #handOver()}, and by
 * any setter or launch that throws, so a refused argument never strands the call on its thread).
 * Subclasses write the values where their backend keeps them and enqueue the launch; they are called
 * by the owning thread only.
 */
public abstract class AbstractKernelCall implements KernelCall {

    private final String kernel;
    private final DeviceStream stream;
    private final KernelParam[] params;
    private final AtomicReference<Thread> owner = new AtomicReference<>();
    private long unset;

    protected AbstractKernelCall(String kernel, DeviceStream stream, KernelParam[] params) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.params = params.clone();
        if (params.length > 16) {
            throw new IllegalArgumentException("kernel '" + kernel + "' declares " + params.length
                    + " parameters; a user kernel may take at most 16 (pass a struct pointer for more)");
        }
        for (int i = 0; i < params.length; i++) {
            Objects.requireNonNull(params[i], "params[" + i + "]");
        }
        this.unset = params.length == 0 ? 0 : -1L >>> (64 - params.length);
    }

    /** The declared parameter kinds, in order (a copy). */
    protected final KernelParam[] params() {
        return params.clone();
    }

    protected final int paramCount() {
        return params.length;
    }

    @Override
    public final String kernel() {
        return kernel;
    }

    @Override
    public final DeviceStream stream() {
        return stream;
    }

    @Override
    public final KernelCall pointer(int index, Memory memory, long offset) {
        claim();
        try {
            check(index, KernelParam.POINTER);
            Objects.requireNonNull(memory, "memory");
            if (offset < 0 || offset > memory.bytes()) {
                throw new IllegalArgumentException("offset " + offset + " of parameter " + index + " of kernel '" + kernel
                        + "' is outside the " + memory.bytes() + " bytes of " + memory);
            }
            writePointer(index, memory, offset);
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall u64(int index, long value) {
        claim();
        try {
            check(index, KernelParam.U64);
            writeU64(index, value);
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall u32(int index, int value) {
        claim();
        try {
            check(index, KernelParam.U32);
            writeU32(index, value);
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall f32(int index, float value) {
        claim();
        try {
            check(index, KernelParam.F32);
            writeU32(index, Float.floatToRawIntBits(value));
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall f64(int index, double value) {
        claim();
        try {
            check(index, KernelParam.F64);
            writeU64(index, Double.doubleToRawLongBits(value));
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall publishHandles(int index, PublishKernel publish) {
        claim();
        try {
            check(index, KernelParam.PUBLISH_HANDLES);
            Objects.requireNonNull(publish, "publish");
            writePublishHandles(index, publish);
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall consumeHandles(int index, ConsumeKernel consume) {
        claim();
        try {
            check(index, KernelParam.CONSUME_HANDLES);
            Objects.requireNonNull(consume, "consume");
            writeConsumeHandles(index, consume);
            return set(index);
        } catch (RuntimeException | Error ex) {
            release();
            throw ex;
        }
    }

    @Override
    public final KernelCall handOver() {
        Thread me = Thread.currentThread();
        Thread holder = owner.get();
        if (holder != null && holder != me) {
            throw new IllegalStateException("kernel call '" + kernel + "' is held by " + holder + ", not by " + me
                    + ": only the thread that set its arguments can hand it over");
        }
        owner.compareAndSet(me, null);
        return this;
    }

    @Override
    public final void launch(int blocks, int threads) {
        claim();
        try {
            if (blocks < 1) {
                throw new IllegalArgumentException("blocks must be at least 1, was " + blocks + " (kernel '" + kernel + "')");
            }
            if (threads < 1 || threads > 1024) {
                throw new IllegalArgumentException("threads must be between 1 and 1024, was " + threads + " (kernel '" + kernel + "')");
            }
            if (unset != 0) {
                int first = Long.numberOfTrailingZeros(unset);
                throw new IllegalStateException("parameter " + first + " (" + params[first] + ") of kernel '" + kernel
                        + "' was never set; set every parameter before the first launch");
            }
            enqueue(blocks, threads);
        } finally {
            release();
        }
    }

    private void check(int index, KernelParam kind) {
        if (index < 0 || index >= params.length) {
            throw new IllegalArgumentException("kernel '" + kernel + "' has parameters 0 to " + (params.length - 1)
                    + ", not " + index);
        }
        if (params[index] != kind) {
            throw new IllegalArgumentException("parameter " + index + " of kernel '" + kernel + "' is declared "
                    + params[index] + ", not " + kind);
        }
    }

    private KernelCall set(int index) {
        unset &= ~(1L << index);
        return this;
    }

    /**
     * Takes the call for this thread, or fails naming the thread that holds it. The hand-over is an
     * atomic transition (a compare-and-set from "free"), and taking it after another thread released it
     * sees every argument that thread set (the release is a volatile write, the take a volatile read).
     */
    private void claim() {
        Thread me = Thread.currentThread();
        while (true) {
            Thread holder = owner.get();
            if (holder == me || (holder == null && owner.compareAndSet(null, me))) {
                return;
            }
            if (holder != null) {
                throw new IllegalStateException("kernel call '" + kernel + "' is held by " + holder + ", which set "
                        + "arguments and has not launched it: one thread at a time sets a call's arguments and launches "
                        + "it; a thread that sets arguments for another to launch (at bind time, say) ends with handOver()");
            }
        }
    }

    /** Gives the call up (the calling thread holds it: it has just claimed it). */
    private void release() {
        owner.set(null);
    }

    /** What a backend throws when a step's handles come from a step bound to another stream. */
    protected final IllegalArgumentException otherStream(String handles, Object step) {
        return new IllegalArgumentException(handles + " handles of kernel '" + kernel + "': " + step + " is not bound to this "
                + "call's stream " + stream + "; a kernel that " + (handles.equals("publish")
                        ? "publishes must run on the channel's producer stream, the only writer of publish_seq"
                        : "acknowledges must run on the consumer's stream, after its reads"));
    }

    /** What a backend throws for publish handles of a channel with push consumers (the device header's subset). */
    protected static IllegalStateException pushConsumers() {
        return new IllegalStateException("this channel has push consumers (PEER_COPY or HOST_STAGED, or consumers named in "
                + "ChannelSpec.Builder.hostListeners(...)): a user kernel cannot "
                + "publish at its end there; write the frames in the kernel and publish with the channel's publish step, "
                + "which copies them to the replicas");
    }

    /** Writes the device address of {@code memory + offset} (bounds already checked against its size). */
    protected abstract void writePointer(int index, Memory memory, long offset);

    protected abstract void writeU64(int index, long value);

    protected abstract void writeU32(int index, int value);

    protected abstract void writePublishHandles(int index, PublishKernel publish);

    protected abstract void writeConsumeHandles(int index, ConsumeKernel consume);

    /** Enqueues the launch with the arguments as they are now; called by the owning thread. */
    protected abstract void enqueue(int blocks, int threads);
}

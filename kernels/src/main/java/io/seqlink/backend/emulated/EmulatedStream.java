package io.seqlink.backend.emulated;

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
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An emulated stream: a bounded ring of preallocated commands executed strictly in order, so stream
 * order holds and enqueueing allocates nothing. In {@link EmulatedTopology.StreamMode#INLINE} mode
 * the enqueuing thread drains the ring; in {@code THREADED} mode a worker thread of the stream does.
 * A stalled stream keeps queueing; once the ring is full an enqueue waits, like a full launch queue.
 * A {@link #waitValueAtLeast wait} at the head holds the queue until its word passes (the front end's
 * {@code cuStreamWaitValue64}): the worker looks again with backoff; an inline stream looks again
 * whenever it is used or asked whether it {@link #completed() completed}, so no thread ever blocks in
 * it but {@link #synchronize()}.
 *
 * <pre>
 *   enqueuers --(enqueueLock)--> [ cmd | cmd | cmd | ... ] --(drainLock / worker)--> execute in order
 *                                   ^head (next to run)   ^tail (next free)
 * </pre>
 */
final class EmulatedStream implements DeviceStream {

    /** Work of one command; runs on whatever thread drains the stream. */
    interface Task {
        void run(Command c);
    }

    /** A preallocated command slot; refs are cleared after execution. */
    static final class Command {
        @Nullable Task task;
        @Nullable Object r0;
        @Nullable Object r1;
        @Nullable Object r2;
        long a;
        long b;
        long c;
        long d;
        long e;
        long f;

        void set(Task task, @Nullable Object r0, @Nullable Object r1, @Nullable Object r2, long a, long b, long c, long d,
                long e, long f) {
            this.task = task;
            this.r0 = r0;
            this.r1 = r1;
            this.r2 = r2;
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.e = e;
            this.f = f;
        }

        /** {@code ref}, a reference of this command that its task set: refs are cleared only once it ran. */
        static Object held(@Nullable Object ref) {
            return Objects.requireNonNull(ref, "a queued command holds the references its task set");
        }
    }

    private final EmulatedDevice device;
    private final String name;
    private final StreamQueue queue;
    private final Task copyTask;
    private final Task writeValueTask;

    EmulatedStream(EmulatedDevice device, String name, EmulatedTopology topology) {
        this.device = device;
        this.name = name;
        this.queue = new StreamQueue(device, name, topology);
        this.copyTask = c -> device.copy((EmulatedMemory) Command.held(c.r0), c.a, (EmulatedMemory) Command.held(c.r1), c.b, c.c);
        this.writeValueTask = c -> device.writeValue((EmulatedMemory) Command.held(c.r0), c.a, c.b);
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public String name() {
        return name;
    }

    EmulatedDevice emulatedDevice() {
        return device;
    }

    @Override
    public void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long bytes) {
        EmulatedMemory s = device.own(src);
        EmulatedMemory d = device.own(dst);
        // Bounds are the caller's mistake, refused here as the driver refuses them at the call: a range
        // found bad only when the command runs would fail the whole device, stickily.
        s.index(srcOffset, bytes);
        d.index(dstOffset, bytes);
        enqueue(copyTask, s, d, null, srcOffset, dstOffset, bytes, 0, 0, 0);
    }

    @Override
    public void writeValue(Memory dst, long offset, long value) {
        enqueue(writeValueTask, word(dst, offset), null, null, offset, value, 0, 0, 0, 0);
    }

    /** The memory holding the 64-bit word at {@code offset}, checked at the call as the driver checks it. */
    private EmulatedMemory word(Memory memory, long offset) {
        EmulatedMemory m = device.own(memory);
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("offset must be a multiple of 8 (a 64-bit word), was " + offset);
        }
        m.index(offset, 8);
        return m;
    }

    @Override
    public void waitValueAtLeast(Memory memory, long offset, long value) {
        queue.waitValueAtLeast(word(memory, offset), offset, value);
    }

    @Override
    public boolean canWaitValue() {
        return true;
    }

    @Override
    public PublishKernel bindPublish(PublishBinding binding) {
        return new EmulatedPublishKernel(this, binding);
    }

    @Override
    public ConsumeKernel bindConsume(ConsumeBinding binding) {
        return new EmulatedConsumeKernel(this, binding);
    }

    @Override
    public AckKernel bindAck(AckBinding binding) {
        return new EmulatedAckKernel(this, binding);
    }

    @Override
    public KernelCall bindKernel(KernelModule module, String kernel, KernelParam... params) {
        queue.checkOpen();
        return new EmulatedKernelCall(this, Objects.requireNonNull(module, "module"),
                Objects.requireNonNull(kernel, "kernel"), params);
    }

    /** Queues one command; runs it right away in inline mode unless the stream is stalled. */
    void enqueue(Task task, @Nullable Object r0, @Nullable Object r1, @Nullable Object r2, long a, long b, long c, long d,
            long e, long f) {
        queue.enqueue(task, r0, r1, r2, a, b, c, d, e, f);
    }

    @Override
    public void synchronize() {
        queue.synchronize();
    }

    @Override
    public boolean completed() {
        return queue.completed();
    }

    void stall() {
        queue.stall();
    }

    void resume() {
        queue.resume();
    }

    boolean stalled() {
        return queue.stalled();
    }

    @Override
    public void close() {
        if (queue.close()) {
            device.released(this);
        }
    }

    @Override
    public String toString() {
        return "EmulatedStream[" + device.ordinal() + "/" + name + (stalled() ? ", stalled" : "") + "]";
    }
}

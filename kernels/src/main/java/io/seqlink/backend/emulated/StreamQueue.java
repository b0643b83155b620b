package io.seqlink.backend.emulated;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.emulated.EmulatedStream.Command;
import io.seqlink.backend.emulated.EmulatedStream.Task;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The command ring of an {@link EmulatedStream} and its draining: commands run strictly in order, on the
 * enqueuing thread (inline) or the stream's worker thread (threaded); a wait at the head holds the
 * queue until its word passes; a stall holds it until resumed; the first failure is kept and thrown to
 * every later caller. The ring and its two locks are drawn in {@link EmulatedStream}.
 */
final class StreamQueue {

    private final EmulatedDevice device;
    private final String name;
    private final Command[] ring;
    private final int mask;
    private final boolean threaded;
    private final ReentrantLock enqueueLock = new ReentrantLock();
    private final ReentrantLock drainLock = new ReentrantLock();
    /** The thread that drains a threaded stream; {@code null} inline. */
    private final @Nullable Thread worker;
    /** Runs once its word passed ({@link #passes}); the wait itself has no effect. */
    private final Task waitTask = c -> { };
    /** The command the inline fast path runs; used only under {@link #drainLock}. */
    private final Command direct = new Command();

    private volatile long head;
    private volatile long tail;
    private volatile boolean stalled;
    private volatile boolean closed;
    private volatile @Nullable DeviceException failure;

    StreamQueue(EmulatedDevice device, String name, EmulatedTopology topology) {
        this.device = device;
        this.name = name;
        this.ring = new Command[topology.streamQueueCapacity()];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Command();
        }
        this.mask = ring.length - 1;
        this.threaded = topology.streamMode() == EmulatedTopology.StreamMode.THREADED;
        if (threaded) {
            worker = new Thread(this::workLoop, "seqlink-emulated-stream-" + device.ordinal() + "-" + name);
            worker.setDaemon(true);
            worker.start();
        } else {
            worker = null;
        }
    }

    /** Refuses work on a closed stream. */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("stream '" + name + "' on device " + device.ordinal() + " is closed");
        }
    }

    /** Queues a wait until the word of {@code m} at {@code offset} is at least {@code value}. */
    void waitValueAtLeast(EmulatedMemory m, long offset, long value) {
        throwIfFailed();
        checkOpen();
        if (!threaded && !stalled && head == tail && m.getAcquireWord(offset) >= value) {
            return; // a wait that passes with nothing queued before it holds nothing back
        }
        queue(waitTask, m, null, null, offset, value, 0, 0, 0, 0);
    }

    /**
     * Whether a command may run now: anything but a wait whose word has not reached its value. Field by field,
     * with a null check: {@link #settle} looks at the head without the drain lock while the worker may clear it.
     */
    private boolean passes(Command cmd) {
        Task task = cmd.task;
        Object word = cmd.r0;
        return task != waitTask || word == null || ((EmulatedMemory) word).getAcquireWord(cmd.a) >= cmd.b;
    }

    /** Queues one command; runs it right away in inline mode unless the stream is stalled. */
    void enqueue(Task task, @Nullable Object r0, @Nullable Object r1, @Nullable Object r2, long a, long b, long c, long d,
            long e, long f) {
        throwIfFailed();
        checkOpen();
        if (!threaded && runNow(task, r0, r1, r2, a, b, c, d, e, f)) {
            return;
        }
        queue(task, r0, r1, r2, a, b, c, d, e, f);
    }

    /** Puts one command into the ring (waiting while it is full), then drains inline or wakes the worker. */
    private void queue(Task task, @Nullable Object r0, @Nullable Object r1, @Nullable Object r2, long a, long b, long c,
            long d, long e, long f) {
        enqueueLock.lock();
        try {
            long t = tail;
            while (t - head >= ring.length) {
                if (threaded || stalled || !drain()) {
                    LockSupport.parkNanos(20_000);
                }
                throwIfFailed();
            }
            ring[(int) (t & mask)].set(task, r0, r1, r2, a, b, c, d, e, f);
            tail = t + 1;
        } finally {
            enqueueLock.unlock();
        }
        if (threaded) {
            LockSupport.unpark(worker);
        } else if (!stalled) {
            drain();
            throwIfFailed();
        }
    }

    /**
     * The inline fast path: with nothing queued and the stream not stalled, the command runs at once on
     * this thread, without passing through the ring (one lock instead of two, nothing written to the
     * ring). Stream order holds: nothing was queued before it, and whatever other threads queue while
     * it runs is drained after it, here or by {@link #drain()}. False when the command must be queued.
     */
    private boolean runNow(Task task, @Nullable Object r0, @Nullable Object r1, @Nullable Object r2, long a, long b, long c,
            long d, long e, long f) {
        if (stalled || head != tail || !drainLock.tryLock()) {
            return false;
        }
        try {
            if (stalled || head != tail) {
                return false;
            }
            direct.set(task, r0, r1, r2, a, b, c, d, e, f);
            execute(direct);
            runQueued();
        } finally {
            drainLock.unlock();
        }
        drain(); // another thread may have queued while we held the lock, and left its command to us
        throwIfFailed();
        return true;
    }

    /**
     * Runs queued commands on the calling thread until the ring is empty, the stream stalls or a wait
     * holds it. Returns whether it ran anything (false also when another thread is draining).
     */
    private boolean drain() {
        boolean ran = false;
        while (head != tail && !stalled) {
            if (!drainLock.tryLock()) {
                return ran; // another thread is draining and will see our command
            }
            boolean held;
            try {
                long before = head;
                held = !runQueued();
                ran |= head != before;
            } finally {
                drainLock.unlock();
            }
            if (held) {
                return ran;
            }
        }
        return ran;
    }

    /**
     * Runs queued commands in order until the ring is empty or the stream stalls (true), or a wait at
     * the head holds it (false); the caller holds {@link #drainLock}.
     */
    private boolean runQueued() {
        long h;
        while ((h = head) != tail && !stalled) {
            Command cmd = ring[(int) (h & mask)];
            if (!passes(cmd) && failure == null && !closed) {
                return false;
            }
            execute(cmd);
            head = h + 1;
        }
        return true;
    }

    private void execute(Command cmd) {
        try {
            // After close, queued work is dropped, never run: its memory may be freed by now, and a
            // kernel touching freed memory would fail the whole device stickily.
            if (failure == null && !closed) {
                device.checkUsable();
                Objects.requireNonNull(cmd.task, "a queued command has its task until it ran").run(cmd);
            }
        } catch (DeviceException ex) {
            failure = ex;
            if (ex.sticky()) {
                device.markFailed(ex);
            }
        } catch (RuntimeException ex) {
            DeviceException failed = new DeviceException("CUDA_ERROR_LAUNCH_FAILED", "stream '" + name + "'", device.ordinal(),
                    true, ex.toString());
            failure = failed;
            device.markFailed(failed);
        } finally {
            cmd.task = null;
            cmd.r0 = null;
            cmd.r1 = null;
            cmd.r2 = null;
        }
    }

    private void workLoop() {
        int idle = 0;
        while (!closed) {
            boolean ran = false;
            if (head != tail && !stalled) {
                drainLock.lock();
                try {
                    long before = head;
                    runQueued();
                    ran = head != before;
                } finally {
                    drainLock.unlock();
                }
            }
            if (ran) {
                idle = 0;
            } else if (++idle < 100) {
                Thread.onSpinWait();
            } else if (idle < 200) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private void throwIfFailed() {
        DeviceException f = failure;
        if (f == null) {
            f = device.failure();
        }
        if (f != null) {
            throw f;
        }
    }

    /** Waits until every queued command has run; throws the stream's failure (dropping what is queued). */
    void synchronize() {
        throwIfFailed();
        int spins = 0;
        while (head != tail) {
            spins = runOrBackOff(spins);
            DeviceException f = failure;
            if (f != null) {
                head = tail;
                throw f;
            }
        }
        throwIfFailed();
    }

    /** Whether every queued command has run; an inline stream first runs what it can. */
    boolean completed() {
        throwIfFailed();
        if (!threaded && !stalled && head != tail) {
            drain(); // an inline stream looks at a held wait again
            throwIfFailed();
        }
        return head == tail;
    }

    /**
     * One step of a thread waiting for the queue to empty: an inline stream runs what it can on the caller;
     * otherwise (or when nothing could run) 100 spins, then parks of 50 µs. Returns the next spin count.
     */
    private int runOrBackOff(int spins) {
        if (!threaded && !stalled && drain()) {
            return 0;
        }
        if (spins < 100) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(50_000);
        }
        return spins + 1;
    }

    /**
     * Runs the queued work before a close, up to a wait whose word has not passed: that wait would hold
     * the stream for ever (nobody released it: a channel releases its armed rounds before it closes its
     * streams), so it and what queued behind it are dropped with the stream, as a destroyed context drops
     * its pending work.
     */
    private void settle() {
        int spins = 0;
        while (head != tail && failure == null) {
            if (!passes(ring[(int) (head & mask)])) {
                return;
            }
            spins = runOrBackOff(spins);
        }
    }

    void stall() {
        stalled = true;
    }

    void resume() {
        stalled = false;
        if (threaded) {
            LockSupport.unpark(worker);
        } else {
            drain();
        }
    }

    boolean stalled() {
        return stalled;
    }

    /** Closes the queue once: runs what can run first (unless stalled or failed); false if it was closed already. */
    boolean close() {
        if (closed) {
            return false;
        }
        if (!stalled && failure == null && device.failure() == null) {
            settle();
        }
        closed = true;
        if (worker != null) {
            LockSupport.unpark(worker);
        }
        return true;
    }
}

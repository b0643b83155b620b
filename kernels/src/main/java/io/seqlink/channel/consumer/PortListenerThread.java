package io.seqlink.channel.consumer;

import io.seqlink.backend.DeviceException;
import io.seqlink.channel.memory.MemoryGuard;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The listener thread of one launcher-driven port, started the first time the device loop hands it a round: the rest
 * of a round whose listener failed (backoff, retries, dead letters), and every round of a listener that once held the
 * loop up. It delivers the round it is handed (its delivery enqueues the ack), so a listener that fails, waits or
 * blocks holds up its own consumer only, never the device loop that serves every other channel of the device. One
 * round at a time; it idles (spin, yield, then park until woken) between rounds.
 *
 * <p>Threading: {@link #wake} and {@link #stop} from any thread; the round comes and goes by its status
 * ({@code WITH_LISTENER} in, {@code DONE} out).
 */
final class PortListenerThread implements Runnable {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Rounds in a row that must each take less than {@link #QUICK_ROUND_NANOS} before a delegated listener goes back inline. */
    static final int QUICK_ROUNDS_TO_RETURN = 1_000;
    static final long QUICK_ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Round round;
    private final PollerSeat seat;
    private final MemoryGuard guard;
    private final Consumer<DeviceException> die;
    private final Thread thread;
    private volatile boolean running = true;
    private int quickRounds;

    /** @param die kills the consumer of a device error its listener's work raised */
    PortListenerThread(String name, Round round, PollerSeat seat, MemoryGuard guard, Consumer<DeviceException> die) {
        this.round = round;
        this.seat = seat;
        this.guard = guard;
        this.die = die;
        this.thread = ListenerThreads.create(this, name);
    }

    void start() {
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    /** A round is ready. */
    void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        int idle = 0;
        while (running) {
            if (round.status() == Round.WITH_LISTENER) {
                idle = 0;
                Thread.interrupted(); // an interrupt meant for an earlier round must not cut this one's backoff short
                long start = System.nanoTime();
                deliver();
                settle(System.nanoTime() - start, round.resuming);
                round.status(Round.DONE);
                Thread poller = seat.engagedLoop();
                if (poller != null) {
                    LockSupport.unpark(poller);
                }
            } else if (++idle <= 100) {
                Thread.onSpinWait();
            } else if (idle <= 120) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, MAX_PARK_NANOS);
            }
        }
    }

    /** Delivers the round it was handed. Nothing is delivered once the channel's memory is going. */
    private void deliver() {
        round.result = round.from - 1;
        if (!guard.enter()) {
            return; // the channel is freeing its memory: nothing is delivered, nothing acknowledged
        }
        try {
            long handled = round.delivery().deliver(round, true);
            round.result = handled == ListenerDelivery.RESUME_ELSEWHERE ? round.from - 1 : handled;
        } catch (DeviceException ex) {
            die.accept(ex);
        } finally {
            guard.exit();
        }
    }

    /**
     * A delegated listener whose rounds have all been quick for a while goes back to the device loop: the hand-off may
     * have been a loop thread descheduled on a busy machine, not a listener that blocks (one that does will be handed
     * over again).
     */
    private void settle(long roundNanos, boolean resumed) { // resumed: it came to resume a failure, not for being slow
        if (!seat.delegated()) {
            return;
        }
        quickRounds = roundNanos < QUICK_ROUND_NANOS && !resumed ? quickRounds + 1 : 0;
        if (quickRounds >= QUICK_ROUNDS_TO_RETURN) {
            quickRounds = 0;
            seat.undelegate();
        }
    }

    /**
     * Stops the thread: at once when it is idle; a listener still running is waited for until {@code deadlineNanos},
     * then left to return on its own (never interrupted: it is user code, and the channel's memory stays allocated
     * until it returns). True when the thread ended.
     */
    boolean stop(long deadlineNanos) {
        running = false;
        LockSupport.unpark(thread);
        if (thread == Thread.currentThread()) {
            return false;
        }
        boolean interrupted = false;
        try {
            for (long left; thread.isAlive() && (left = deadlineNanos - System.nanoTime()) > 0; ) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        } catch (InterruptedException ex) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}

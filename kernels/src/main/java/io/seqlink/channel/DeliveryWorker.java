package io.seqlink.channel;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The listener thread of one launcher-driven port, started the first time the device loop hands it a
 * round: the rest of a round whose listener failed (backoff, retries, dead letters), and every round of
 * a listener that once held the loop up. It delivers them ({@link FrameDelivery}) and enqueues their
 * ack, so a listener that fails, waits or blocks holds up its own consumer only, never the device loop
 * that serves every other channel of the device. One round at a time; it idles (spin, yield, then park
 * until woken) between rounds.
 */
final class DeliveryWorker implements Runnable {

    /** Threads seqlink runs listeners on (device loops and listener threads): producers called from them may still publish while a runtime drains. */
    static final class ListenerThread extends Thread {
        ListenerThread(Runnable task, String name) {
            super(task, name);
            setDaemon(true);
        }
    }

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Rounds in a row that must each take less than {@link #QUICK_ROUND_NANOS} before a delegated listener goes back inline. */
    static final int QUICK_ROUNDS_TO_RETURN = 1_000;
    static final long QUICK_ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final ConsumerPort port;
    private final Round round;
    private final RoundMachine rounds;
    private final ListenerThread thread;
    private volatile boolean running = true;
    private int quickRounds;

    DeliveryWorker(ConsumerPort port, RoundMachine rounds) {
        this.port = port;
        this.round = rounds.round();
        this.rounds = rounds;
        this.thread = new ListenerThread(this, "seqlink-listener-" + port.channel() + "-" + port.device());
    }

    /** Whether the calling thread is one of seqlink's listener threads. */
    static boolean onListenerThread() {
        return Thread.currentThread() instanceof ListenerThread;
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
            if (round.status() == Round.READY) {
                idle = 0;
                Thread.interrupted(); // an interrupt meant for an earlier round must not cut this one's backoff short
                long start = System.nanoTime();
                deliverGuarded();
                settle(System.nanoTime() - start);
                round.status(Round.DONE);
                Thread poller = port.seat().engagedLoop();
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

    /**
     * A delegated listener whose rounds have all been quick for a while goes back to the device loop:
     * the hand-off may have been a loop thread descheduled on a busy machine, not a listener that blocks
     * (one that does will be handed over again).
     */
    private void settle(long roundNanos) {
        if (!port.seat().delegated() || round.needsRetry) {
            return;
        }
        quickRounds = roundNanos < QUICK_ROUND_NANOS && round.resumeAttempt == 0 ? quickRounds + 1 : 0;
        if (quickRounds >= QUICK_ROUNDS_TO_RETURN) {
            quickRounds = 0;
            port.seat().undelegate();
        }
    }

    private void deliverGuarded() {
        if (!port.guard().enter()) {
            return; // the channel is freeing its memory: nothing is delivered, nothing acknowledged
        }
        try {
            rounds.deliver(round, true);
        } finally {
            port.guard().exit();
        }
    }

    /**
     * Stops the thread: at once when it is idle; a listener still running is waited for until
     * {@code deadlineNanos}, then left to return on its own (never interrupted: it is user code, and the
     * channel's memory stays allocated until it returns). True when the thread ended.
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

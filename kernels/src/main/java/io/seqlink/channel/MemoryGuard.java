package io.seqlink.channel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps a channel's memory alive while a thread uses it. Freed pinned or device memory must never be
 * touched again: on a GPU the read would fault the process, not throw. Each user role (the producer,
 * each consumer's poller, outside observers) enters its own guard around every use; closing shuts
 * every guard to newcomers and waits for those inside before anything is freed.
 *
 * <pre>
 *   users >= 0         open: that many threads (or nested calls) inside
 *   users <  0         closed: MIN_VALUE + those still inside
 * </pre>
 */
final class MemoryGuard {

    private static final int CLOSED = Integer.MIN_VALUE;

    private final AtomicInteger users = new AtomicInteger();

    /** Enters unless closed; a {@code true} must be paired with {@link #exit()}. */
    boolean enter() {
        for (;;) {
            int u = users.get();
            if (u < 0) {
                return false;
            }
            if (users.compareAndSet(u, u + 1)) {
                return true;
            }
        }
    }

    void exit() {
        users.decrementAndGet();
    }

    /** Shuts the guard to newcomers (idempotent). */
    void shut() {
        for (;;) {
            int u = users.get();
            if (u < 0 || users.compareAndSet(u, u + CLOSED)) {
                return;
            }
        }
    }

    /** Whether the guard is shut and nobody is inside. */
    boolean quiet() {
        return users.get() == CLOSED;
    }

    boolean open() {
        return users.get() >= 0;
    }

    /** Waits until every guard is quiet or the deadline passes; true when all are quiet. */
    static boolean awaitQuiet(Iterable<MemoryGuard> guards, long deadlineNanos) {
        for (;;) {
            boolean quiet = true;
            for (MemoryGuard g : guards) {
                quiet &= g.quiet();
            }
            if (quiet) {
                return true;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            LockSupport.parkNanos(100_000);
        }
    }
}

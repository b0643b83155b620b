package io.seqlink.channel.memory;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps a channel's memory alive while a thread uses it. Freed pinned or device memory must never be
 * touched again: on a GPU the read would fault the process, not throw. Each user role (the producers,
 * each consumer's poller and listener, outside observers) enters its own guard around every use;
 * closing shuts every guard to newcomers, and the last user out of a shut guard reports it quiet, so
 * the memory is freed exactly when nobody can reach it any more: at once when nobody is inside, or
 * when a listener stuck in user code finally returns (never while it still runs).
 *
 * <pre>
 *   users >= 0         open: that many threads (or nested calls) inside
 *   users <  0         shut: MIN_VALUE + those still inside; reaching MIN_VALUE runs onQuiet, once
 * </pre>
 *
 * <p>Every method is safe from any thread: the count changes only by compare-and-set.
 */
public final class MemoryGuard {

    private static final int SHUT = Integer.MIN_VALUE;

    private final AtomicInteger users = new AtomicInteger();
    private final Runnable onQuiet;

    /** @param onQuiet runs once, on the thread that leaves the shut guard last (or shuts it empty) */
    public MemoryGuard(Runnable onQuiet) {
        this.onQuiet = onQuiet;
    }

    /** Enters unless shut; a {@code true} must be paired with {@link #exit()}. */
    public boolean enter() {
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

    public void exit() {
        if (users.decrementAndGet() == SHUT) {
            onQuiet.run();
        }
    }

    /** Shuts the guard to newcomers (idempotent). */
    public void shut() {
        for (;;) {
            int u = users.get();
            if (u < 0) {
                return;
            }
            if (users.compareAndSet(u, u + SHUT)) {
                if (u == 0) {
                    onQuiet.run();
                }
                return;
            }
        }
    }

    /** Threads inside now, open or shut. */
    public int inside() {
        int u = users.get();
        return u >= 0 ? u : u - SHUT;
    }

}

package io.seqlink.launcher;

/**
 * When a listener holds its device loop up, so that the watchdog hands it a thread of its own: one call
 * waiting (parked, sleeping, blocked on a lock) for the hand-off time, or running on a CPU for ten times
 * that, or a whole round lasting twenty-five times that (a call blocked in native code is runnable and
 * burns no CPU: this bounds it). A call that is merely runnable, its thread descheduled on a busy
 * machine, is not handed over before that: a new loop thread would wait for a CPU just the same, and a
 * listener on its own thread costs a thread hop per round. Immutable; any thread.
 */
final class HandoffRule {

    private final long afterNanos;

    HandoffRule(long afterNanos) {
        this.afterNanos = afterNanos;
    }

    /**
     * Whether the call in progress ({@code callNanos} of wall time so far, {@code callCpuNanos} of them on
     * a CPU) in a round of {@code roundNanos}, with the loop thread {@code waiting} now, holds the loop up.
     */
    boolean handOver(long callNanos, long callCpuNanos, long roundNanos, boolean waiting) {
        return (waiting && callNanos >= afterNanos) || callCpuNanos >= 10 * afterNanos || roundNanos >= 25 * afterNanos;
    }
}

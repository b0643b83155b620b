package io.seqlink.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * Busy-spin, then yield, then park with exponentially growing periods up to a ceiling: the latency of
 * a spin while work keeps coming, and an idle core once it stops.
 *
 * <pre>
 *   idle() calls:  1 .. maxSpins        Thread.onSpinWait()
 *                  .. + maxYields       Thread.yield()
 *                  then                 park(minPark), park(2 x minPark), ... park(maxPark)
 * </pre>
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    private final long maxSpins;
    private final long maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private long spins;
    private long yields;
    private long parkNanos;

    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNanos, long maxParkNanos) {
        if (maxSpins < 0 || maxYields < 0 || minParkNanos < 1 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("need maxSpins >= 0, maxYields >= 0, 1 <= minParkNanos <= maxParkNanos; got "
                    + maxSpins + ", " + maxYields + ", " + minParkNanos + ", " + maxParkNanos);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parkNanos = minParkNanos;
    }

    /** 100 spins, 10 yields, then park from 1 µs up to 100 µs. */
    public static BackoffIdleStrategy defaults() {
        return new BackoffIdleStrategy(100, 10, 1_000, 100_000);
    }

    @Override
    public void idle() {
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(parkNanos << 1, maxParkNanos);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }

    @Override
    public String alias() {
        return "backoff";
    }
}

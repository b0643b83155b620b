package io.seqlink.idle;

import java.util.concurrent.locks.LockSupport;

/** Parks for a fixed period on every idle round: least CPU, most latency. */
public final class ParkingIdleStrategy implements IdleStrategy {

    private final long parkNanos;

    public ParkingIdleStrategy(long parkNanos) {
        if (parkNanos < 1) {
            throw new IllegalArgumentException("parkNanos must be positive, was " + parkNanos);
        }
        this.parkNanos = parkNanos;
    }

    @Override
    public void idle() {
        LockSupport.parkNanos(parkNanos);
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "park";
    }
}

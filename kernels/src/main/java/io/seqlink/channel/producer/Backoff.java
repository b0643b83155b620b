package io.seqlink.channel.producer;

import java.util.concurrent.locks.LockSupport;

/**
 * The idle steps of a waiting producer, by how often it has waited: spin, then yield, then park from
 * 1 µs doubling up to 64 µs. Stateless, so a blocking claim allocates nothing.
 */
final class Backoff {

    private static final int SPINS = 100;
    private static final int YIELDS = 10;

    private Backoff() {
    }

    static void idle(int iteration) {
        if (iteration < SPINS) {
            Thread.onSpinWait();
        } else if (iteration < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(1_000L << Math.min(iteration - SPINS - YIELDS, 6)); // 1 µs .. 64 µs
        }
    }
}

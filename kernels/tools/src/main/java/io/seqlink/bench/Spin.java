package io.seqlink.bench;

import java.util.function.LongSupplier;

/**
 * Busy-waits for a counter with a deadline, so a lost frame or a hung device fails one scenario with
 * a message instead of hanging the harness. The clock is read every 1024 polls only: reading it on
 * every poll would add its own cost to the latencies measured.
 */
final class Spin {

    /** How long any single wait may take before the scenario is declared stuck. */
    static final long DEFAULT_TIMEOUT_NANOS = 10_000_000_000L;

    private Spin() {
    }

    /** Spins until {@code value} reaches {@code target}; throws {@link StuckException} after the timeout. */
    static void awaitAtLeast(LongSupplier value, long target, String what) {
        if (value.getAsLong() >= target) {
            return;
        }
        long deadline = 0;
        int n = 0;
        while (value.getAsLong() < target) {
            if ((++n & 1023) == 0) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + DEFAULT_TIMEOUT_NANOS;
                } else if (now - deadline > 0) {
                    throw new StuckException(what + " did not reach " + target + " within "
                            + DEFAULT_TIMEOUT_NANOS / 1_000_000_000 + " s (it is " + value.getAsLong() + ")");
                }
            }
            Thread.onSpinWait();
        }
    }

    /** A wait that did not finish in time: the device, a stream or the protocol is stuck. */
    static final class StuckException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StuckException(String message) {
            super(message);
        }
    }
}

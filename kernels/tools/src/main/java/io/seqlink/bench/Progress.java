package io.seqlink.bench;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Watches a spinning loop: it throws when nothing moved for {@link Spin#DEFAULT_TIMEOUT_NANOS}, and
 * stops when a partner thread failed. Call {@link #idle()} on every empty spin and {@link #moved()}
 * on progress; the clock is read every 1024 idle spins only.
 */
final class Progress {

    private final String what;
    private final AtomicReference<Throwable> partnerFailure;
    private int spins;
    private long lastMove = System.nanoTime();

    Progress(String what, AtomicReference<Throwable> partnerFailure) {
        this.what = what;
        this.partnerFailure = partnerFailure;
    }

    void moved() {
        spins = 0;
        lastMove = 0;
    }

    void idle() {
        if ((++spins & 1023) != 0) {
            Thread.onSpinWait();
            return;
        }
        look();
    }

    /** A look that found no progress after the caller parked: checks the partner and the clock at once. */
    void idleAfterPark() {
        look();
    }

    private void look() {
        if (partnerFailure != null && partnerFailure.get() != null) {
            throw new PartnerFailed();
        }
        long now = System.nanoTime();
        if (lastMove == 0) {
            lastMove = now;
        } else if (now - lastMove > Spin.DEFAULT_TIMEOUT_NANOS) {
            throw new Spin.StuckException(what + ": no progress for " + Spin.DEFAULT_TIMEOUT_NANOS / 1_000_000_000 + " s");
        }
    }

    /** Ends a thread whose partner failed; the partner's failure is the one reported. */
    static final class PartnerFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PartnerFailed() {
            super("partner thread failed", null, false, false);
        }
    }
}

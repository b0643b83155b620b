package io.seqlink.idle;

import org.agrona.concurrent.IdleStrategy;

/**
 * Spins for a while after work before it lets another strategy back off: a frame that follows the last one within
 * the window is seen within a spin, not after a park. A park of "1 µs" costs tens of microseconds on Linux (timer
 * slack), so a back-off that parks between frames of a steady flow puts those tens of microseconds on every frame's
 * latency (docs/spring-boot.md, "The spin after work"). The trade: a loop whose device delivers a frame every window or more often spins all the
 * time; one that delivers one frame per millisecond spins a window's share of it (10 % of a core for 100 µs).
 *
 * <p>One instance per thread, as every Agrona strategy.
 */
final class SpinAfterWork implements IdleStrategy {

    private final long windowNanos;
    private final IdleStrategy then;
    private long lastWorkNanos;

    SpinAfterWork(long windowNanos, IdleStrategy then) {
        this.windowNanos = windowNanos;
        this.then = then;
        this.lastWorkNanos = System.nanoTime() - windowNanos; // no work yet: back off at once
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            lastWorkNanos = System.nanoTime();
            then.reset();
            return;
        }
        if (System.nanoTime() - lastWorkNanos < windowNanos) {
            Thread.onSpinWait();
            return;
        }
        then.idle(0);
    }

    @Override
    public void idle() {
        idle(0);
    }

    @Override
    public void reset() {
        lastWorkNanos = System.nanoTime() - windowNanos;
        then.reset();
    }

    @Override
    public String alias() {
        return "spin-after-work";
    }
}

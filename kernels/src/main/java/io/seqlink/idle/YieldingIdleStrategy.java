package io.seqlink.idle;

/** Yields the core on every idle round. */
public final class YieldingIdleStrategy implements IdleStrategy {

    @Override
    public void idle() {
        Thread.yield();
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "yield";
    }
}

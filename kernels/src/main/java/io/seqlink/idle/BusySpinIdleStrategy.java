package io.seqlink.idle;

/** Never gives up the core: lowest latency, one core per polling thread. */
public final class BusySpinIdleStrategy implements IdleStrategy {

    @Override
    public void idle() {
        Thread.onSpinWait();
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "busy-spin";
    }
}

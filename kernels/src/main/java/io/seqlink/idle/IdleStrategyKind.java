package io.seqlink.idle;

import java.util.function.Supplier;

/** The idle strategies by name, for configuration. Each call of {@link #create()} gives a new, unshared instance. */
public enum IdleStrategyKind {
    /** Spin, yield, then park with growing periods (the default). */
    BACKOFF(BackoffIdleStrategy::defaults),
    /** Spin forever: lowest latency, a full core per loop. */
    BUSY_SPIN(BusySpinIdleStrategy::new),
    /** Yield on every idle round. */
    YIELD(YieldingIdleStrategy::new),
    /** Park 100 µs on every idle round. */
    PARK(() -> new ParkingIdleStrategy(100_000));

    private final Supplier<IdleStrategy> factory;

    IdleStrategyKind(Supplier<IdleStrategy> factory) {
        this.factory = factory;
    }

    public IdleStrategy create() {
        return factory.get();
    }
}

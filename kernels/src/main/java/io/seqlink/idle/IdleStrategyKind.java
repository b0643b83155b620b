package io.seqlink.idle;

import java.util.function.Supplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * The idle strategies by name, for configuration: Agrona's, whose back-off is padded against false
 * sharing and measured no slower than an unpadded hand-written copy (docs/architecture.md, "Idle
 * strategies"). Each call of {@link #create()} gives a new instance for one thread; safe from any thread.
 */
public enum IdleStrategyKind {
    /** Spin 100 times, yield 10 times, then park from 1 µs doubling up to 100 µs (the default). */
    BACKOFF(() -> new BackoffIdleStrategy(100, 10, 1_000, 100_000)),
    /** Spin forever: lowest latency, a full core per loop. */
    BUSY_SPIN(BusySpinIdleStrategy::new),
    /** Yield on every idle round. */
    YIELD(YieldingIdleStrategy::new),
    /** Park 100 µs on every idle round. */
    PARK(() -> new SleepingIdleStrategy(100_000));

    private final Supplier<IdleStrategy> factory;

    IdleStrategyKind(Supplier<IdleStrategy> factory) {
        this.factory = factory;
    }

    /** A new strategy, to be used by one thread only (it keeps that thread's back-off state). */
    public IdleStrategy create() {
        return factory.get();
    }
}

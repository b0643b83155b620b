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
 * strategies"). What a device loop does after a pass that found no work; a loop whose kind
 * {@linkplain #dozes() dozes} also stops looking every few microseconds once its device has been quiet for
 * a while (the launcher's doze: every consumer caught up for 100 ms, then a park until a publish for one of its
 * consumers unparks it). Each call of {@link #create()} gives a new instance for one
 * thread; safe from any thread.
 */
public enum IdleStrategyKind {
    /**
     * Spin for 100 µs after a pass that found work, then spin 100 times, yield 10 times, then park from 1 µs
     * doubling up to 100 µs; after 100 ms without work, doze until a publish wakes the loop (the default: frames of a
     * steady flow are seen within a spin, an idle service costs well under 1 % of a core, and the first frame after a
     * quiet period waits for its loop thread to be unparked).
     */
    BACKOFF(IdleStrategyKind::backoff, true),
    /** The same back-off, never dozing: a frame after a quiet period waits at most about 100 µs; each device loop costs a few % of a core while idle. */
    LOW_LATENCY(IdleStrategyKind::backoff, false),
    /** Spin forever: lowest latency, a full core per loop. */
    BUSY_SPIN(BusySpinIdleStrategy::new, false),
    /** Yield on every idle round. */
    YIELD(YieldingIdleStrategy::new, false),
    /** Park 100 µs on every idle round. */
    PARK(() -> new SleepingIdleStrategy(100_000), false);

    private final Supplier<IdleStrategy> factory;
    private final boolean dozes;

    IdleStrategyKind(Supplier<IdleStrategy> factory, boolean dozes) {
        this.factory = factory;
        this.dozes = dozes;
    }

    /** How long a loop keeps spinning after a pass that found work, before it backs off. */
    public static final long SPIN_AFTER_WORK_NANOS = 100_000;

    private static IdleStrategy backoff() {
        return new SpinAfterWork(SPIN_AFTER_WORK_NANOS, new BackoffIdleStrategy(100, 10, 1_000, 100_000));
    }

    /** A new strategy, to be used by one thread only (it keeps that thread's back-off state). */
    public IdleStrategy create() {
        return factory.get();
    }

    /** Whether a device loop with this strategy dozes once its device has been quiet for a while. */
    public boolean dozes() {
        return dozes;
    }
}

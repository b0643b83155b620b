package io.seqlink.jmh;

import io.seqlink.idle.BackoffIdleStrategy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * seqlink's back-off idle strategy against Agrona's, in the phase where a launcher thread spends its
 * idle time: spinning, each call writing the strategy's spin counter. Two launcher threads each own
 * one strategy; the two are allocated one after the other, as the launcher creates its device loops,
 * so seqlink's unpadded objects can share a cache line and Agrona's padded ones cannot.
 * {@code alone}: one thread, one strategy (no sharing possible); {@code pair}: the two threads at once.
 * The figure is nanoseconds per {@code idle()} call. See docs/architecture.md, "Idle strategies".
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IdleStrategyBenchmark {

    /** Spin for ever: every call is the spin phase. */
    private static final long SPINS = Long.MAX_VALUE;

    /** Two adjacent strategies of each kind, shared by the two threads of a group. */
    @State(Scope.Group)
    public static class Pair {
        final BackoffIdleStrategy seqlinkA = new BackoffIdleStrategy(SPINS, 0, 1, 1);
        final BackoffIdleStrategy seqlinkB = new BackoffIdleStrategy(SPINS, 0, 1, 1);
        final org.agrona.concurrent.BackoffIdleStrategy agronaA = new org.agrona.concurrent.BackoffIdleStrategy(SPINS, 0, 1, 1);
        final org.agrona.concurrent.BackoffIdleStrategy agronaB = new org.agrona.concurrent.BackoffIdleStrategy(SPINS, 0, 1, 1);
    }

    /** One strategy of each kind per thread. */
    @State(Scope.Thread)
    public static class Alone {
        final BackoffIdleStrategy seqlink = new BackoffIdleStrategy(SPINS, 0, 1, 1);
        final org.agrona.concurrent.BackoffIdleStrategy agrona = new org.agrona.concurrent.BackoffIdleStrategy(SPINS, 0, 1, 1);
    }

    @Benchmark
    public void seqlinkAlone(Alone s) {
        s.seqlink.idle(0);
    }

    @Benchmark
    public void agronaAlone(Alone s) {
        s.agrona.idle(0);
    }

    @Benchmark
    @Group("seqlinkPair")
    @GroupThreads(1)
    public void seqlinkPairA(Pair p) {
        p.seqlinkA.idle(0);
    }

    @Benchmark
    @Group("seqlinkPair")
    @GroupThreads(1)
    public void seqlinkPairB(Pair p) {
        p.seqlinkB.idle(0);
    }

    @Benchmark
    @Group("agronaPair")
    @GroupThreads(1)
    public void agronaPairA(Pair p) {
        p.agronaA.idle(0);
    }

    @Benchmark
    @Group("agronaPair")
    @GroupThreads(1)
    public void agronaPairB(Pair p) {
        p.agronaB.idle(0);
    }
}

package io.seqlink.testing;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Seeded, reproducible randomized checks with plain JUnit. Each case draws from its own
 * {@link SplittableRandom} whose seed is
 * derived from the run seed and the case number; a failing case is reported with both, and
 * {@code -Dseqlink-build.seed=<run seed>} (and optionally {@code -Dseqlink-build.case=<n>}) replays it.
 */
public final class Seeded {

    /** The run seed: {@code -Dseqlink-build.seed}, else a fixed default so CI runs are repeatable. */
    public static long runSeed() {
        return Long.getLong("seqlink-build.seed", 0x5EED_1234_ABCDL);
    }

    private Seeded() {
    }

    /** Runs {@code cases} random cases of {@code property}; a failure names the seed and case to replay. */
    public static void forAll(String name, int cases, Consumer<SplittableRandom> property) {
        long seed = runSeed();
        Integer only = Integer.getInteger("seqlink-build.case");
        for (int c = 0; c < cases; c++) {
            if (only != null && only != c) {
                continue;
            }
            SplittableRandom random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (c + 1)));
            try {
                property.accept(random);
            } catch (AssertionError | RuntimeException e) {
                AssertionError failure = new AssertionError(name + " failed at case " + c + " of run seed " + seed
                        + "; replay with -Dseqlink-build.seed=" + seed + " -Dseqlink-build.case=" + c + ": " + e.getMessage(), e);
                throw failure;
            }
        }
    }

    /** A long in {@code [lo, hi]}, biased to the edges a quarter of the time. */
    public static long between(SplittableRandom r, long lo, long hi) {
        int pick = r.nextInt(8);
        if (pick == 0) {
            return lo;
        }
        if (pick == 1) {
            return hi;
        }
        if (pick == 2 && hi > lo) {
            return lo + 1;
        }
        return hi == Long.MAX_VALUE && lo == Long.MIN_VALUE ? r.nextLong() : lo + r.nextLong(hi - lo + 1);
    }

    /** An int in {@code [lo, hi]}, biased to the edges and to powers of two. */
    public static int intBetween(SplittableRandom r, int lo, int hi) {
        int pick = r.nextInt(10);
        if (pick == 0) {
            return lo;
        }
        if (pick == 1) {
            return hi;
        }
        if (pick == 2) {
            int p = Integer.highestOneBit(Math.max(1, lo + r.nextInt(hi - lo + 1)));
            return Math.max(lo, Math.min(hi, p));
        }
        return lo + r.nextInt(hi - lo + 1);
    }
}

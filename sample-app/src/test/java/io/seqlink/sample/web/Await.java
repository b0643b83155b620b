package io.seqlink.sample.web;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** Polls until a condition holds or a deadline passes: tests wait for behaviour, never for a fixed time. */
public final class Await {

    private Await() {
    }

    /** The first value of {@code probe} that satisfies {@code done}; fails with the last value seen at the deadline. */
    public static <T> T until(Duration timeout, Callable<T> probe, Predicate<T> done, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        while (true) {
            last = probe.call();
            if (done.test(last)) {
                return last;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last seen: " + last);
            }
            Thread.sleep(50);
        }
    }
}

package io.seqlink.channel;

import java.time.Duration;
import java.util.Objects;

/**
 * How a failing listener is retried before its frame goes to the {@link FrameErrorHandler}: up to
 * {@code maxAttempts} deliveries, waiting {@code initialBackoff}, then that times {@code multiplier}
 * each time, at most {@code maxBackoff}. The waits happen on the consumer's launcher thread.
 *
 * @param maxAttempts    deliveries in all, at least 1
 * @param initialBackoff wait before the second delivery
 * @param multiplier     growth of the wait, at least 1
 * @param maxBackoff     longest wait
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, double multiplier, Duration maxBackoff) {

    public RetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be at least 1, was " + multiplier);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, got " + initialBackoff + ", " + maxBackoff);
        }
    }

    /** 3 deliveries, waits of 10 ms then 20 ms. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(3, Duration.ofMillis(10), 2.0, Duration.ofSeconds(1));
    }

    /** The wait in nanoseconds before delivery {@code attempt} (2 for the first retry). */
    public long backoffNanos(int attempt) {
        double nanos = initialBackoff.toNanos() * Math.pow(multiplier, Math.max(0, attempt - 2));
        return (long) Math.min(nanos, maxBackoff.toNanos());
    }
}

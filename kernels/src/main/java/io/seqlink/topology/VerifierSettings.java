package io.seqlink.topology;

import java.time.Duration;
import java.util.Objects;

/**
 * How the startup verifier judges a link.
 *
 * @param enabled             whether to probe links at all; when off, verdicts come from driver attributes alone
 * @param maxAtomicLatencyNs  highest acceptable mean latency of one remote {@code atom.add.release.sys}
 * @param minScalingRatio     lowest acceptable ratio of remote-atomic throughput at the most threads to that at one thread
 * @param timeout             how long probing one link may take
 */
public record VerifierSettings(boolean enabled, double maxAtomicLatencyNs, double minScalingRatio, Duration timeout) {

    /**
     * 3 µs: a local {@code atom.add.release.sys} chain on an H200 measured about 660 ns; NVLink adds
     * on the order of a microsecond; atomics proxied through the host take several.
     */
    public static final double DEFAULT_MAX_ATOMIC_LATENCY_NS = 3_000;
    /** More threads must not lower remote-atomic throughput; a working NVLink path scales far beyond this. */
    public static final double DEFAULT_MIN_SCALING_RATIO = 1.0;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public VerifierSettings {
        Objects.requireNonNull(timeout, "timeout");
        if (maxAtomicLatencyNs <= 0) {
            throw new IllegalArgumentException("maxAtomicLatencyNs must be positive, was " + maxAtomicLatencyNs);
        }
        if (minScalingRatio < 0) {
            throw new IllegalArgumentException("minScalingRatio must not be negative, was " + minScalingRatio);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    public static VerifierSettings defaults() {
        return new VerifierSettings(true, DEFAULT_MAX_ATOMIC_LATENCY_NS, DEFAULT_MIN_SCALING_RATIO, DEFAULT_TIMEOUT);
    }

    public VerifierSettings withEnabled(boolean on) {
        return new VerifierSettings(on, maxAtomicLatencyNs, minScalingRatio, timeout);
    }
}

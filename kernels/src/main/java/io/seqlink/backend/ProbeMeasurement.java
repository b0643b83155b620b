package io.seqlink.backend;

import java.util.List;

/**
 * What the probe of one link measured.
 *
 * @param functionalOk         whether the pattern read back intact and no counted atomic add was lost
 * @param functionalDetail     what the functional check saw, in words
 * @param atomicAddLatencyNs   mean latency of one remote {@code atom.add.release.sys} in a dependent chain
 * @param acquireLoadLatencyNs mean latency of one remote {@code ld.acquire.sys} in a dependent chain
 * @param scaling              remote atomic throughput per thread count and block count
 * @param elapsedMillis        how long the probe took
 */
public record ProbeMeasurement(boolean functionalOk, String functionalDetail, double atomicAddLatencyNs,
        double acquireLoadLatencyNs, List<ScalingPoint> scaling, long elapsedMillis) {

    public ProbeMeasurement {
        scaling = List.copyOf(scaling);
    }

    /**
     * Remote atomic adds per second with {@code threads} threads in each of {@code blocks} blocks.
     */
    public record ScalingPoint(int threads, int blocks, double opsPerSecond) {
    }
}

package io.seqlink.backend;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the link probe runs on the consumer device against memory of the producer device.
 *
 * @param patternBytes   bytes of the functional pattern check
 * @param countedAdds    atomic adds per thread in the functional counted-add check
 * @param chainLength    dependent operations per latency chain
 * @param threadCounts   thread counts of the scaling measurement, e.g. 1, 32, 256, 1024
 * @param timeout        how long the whole probe of one link may take
 */
public record ProbePlan(int patternBytes, int countedAdds, int chainLength, List<Integer> threadCounts, Duration timeout) {

    public ProbePlan {
        Objects.requireNonNull(threadCounts, "threadCounts");
        Objects.requireNonNull(timeout, "timeout");
        threadCounts = List.copyOf(threadCounts);
    }

    public static ProbePlan defaults(Duration timeout) {
        return new ProbePlan(1 << 20, 64, 1000, List.of(1, 32, 256, 1024), timeout);
    }
}

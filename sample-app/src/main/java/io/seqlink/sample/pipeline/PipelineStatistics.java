package io.seqlink.sample.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Counters of the pipeline, written by the producer, the inference lanes, the forwarder and the
 * collector without locks or allocation, read by the HTTP API, health and metrics.
 */
public final class PipelineStatistics {

    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong injections = new AtomicLong();
    private final AtomicLong returned = new AtomicLong();
    private final AtomicLong collected = new AtomicLong();
    private final AtomicLong verifiedFully = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong forwardingErrors = new AtomicLong();
    private final AtomicLong latencyCount = new AtomicLong();
    private final AtomicLong latencyTotalNanos = new AtomicLong();
    private final AtomicLong latencyMaxNanos = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    private final Map<Integer, DeviceStatistics> devices = new TreeMap<>();
    /** Commit time of frame s at index s & mask: end-to-end latency without a map. */
    private final AtomicLongArray commitNanos;
    private final int mask;
    private final long startedNanos = System.nanoTime();

    /** @param inFlightBound most frames between commit and collection, to size the commit-time ring */
    public PipelineStatistics(int inFlightBound) {
        int size = Integer.highestOneBit(Math.max(1024, inFlightBound * 4 - 1)) << 1;
        this.commitNanos = new AtomicLongArray(size);
        this.mask = size - 1;
    }

    /** Registers an inference device; called while the pipeline is assembled, before any frame. */
    public synchronized DeviceStatistics device(int device) {
        return devices.computeIfAbsent(device, DeviceStatistics::new);
    }

    public synchronized List<DeviceStatistics> devices() {
        return Collections.unmodifiableList(new ArrayList<>(devices.values()));
    }

    // ---- producer -----------------------------------------------------------------------------

    void committed(long sequence, long nanos) {
        commitNanos.lazySet((int) (sequence & mask), nanos);
        produced.incrementAndGet();
    }

    /** Counts one HTTP injection. */
    public void injection() {
        injections.incrementAndGet();
    }

    /** Frames prepared and not yet collected (or known lost): what the producer's credit counts. */
    public long inFlight() {
        return produced.get() - returned.get();
    }

    // ---- collector ----------------------------------------------------------------------------

    void collected(long frameSequence, long nowNanos) {
        collected.incrementAndGet();
        returned.incrementAndGet();
        long committedAt = commitNanos.get((int) (frameSequence & mask));
        long latency = nowNanos - committedAt;
        if (committedAt != 0 && latency >= 0) {
            latencyCount.incrementAndGet();
            latencyTotalNanos.addAndGet(latency);
            latencyMaxNanos.accumulateAndGet(latency, Math::max);
        }
    }

    /** Nanoseconds from commit to collection of {@code frameSequence}, or -1 when unknown. */
    long latencyOf(long frameSequence, long nowNanos) {
        long committedAt = commitNanos.get((int) (frameSequence & mask));
        return committedAt == 0 ? -1 : nowNanos - committedAt;
    }

    void recordVerifiedFully() {
        verifiedFully.incrementAndGet();
    }

    /** Counts a failed check; the message (built only on failure) is kept as the last one. */
    void failure(String message) {
        failures.incrementAndGet();
        lastFailure.set(message);
    }

    /** A frame that will never come back (dead-lettered): counted, and its credit returned. */
    void lost(String message) {
        lost.incrementAndGet();
        returned.incrementAndGet();
        failure(message);
    }

    /** The forwarder caught an exception (it logs it and goes on). */
    void forwardingError() {
        forwardingErrors.incrementAndGet();
    }

    // ---- reading ------------------------------------------------------------------------------

    public long produced() {
        return produced.get();
    }

    public long injections() {
        return injections.get();
    }

    public long collected() {
        return collected.get();
    }

    public long verifiedFully() {
        return verifiedFully.get();
    }

    public long failures() {
        return failures.get();
    }

    public long lost() {
        return lost.get();
    }

    /** Exceptions the results forwarder caught; each is logged. Zero in a healthy pipeline. */
    public long forwardingErrors() {
        return forwardingErrors.get();
    }

    public @Nullable String lastFailure() {
        return lastFailure.get();
    }

    public long latencyCount() {
        return latencyCount.get();
    }

    /** Mean commit-to-collection latency in microseconds, or {@code null} before the first result. */
    public @Nullable Double meanLatencyMicros() {
        long n = latencyCount.get();
        return n == 0 ? null : latencyTotalNanos.get() / (double) n / 1000.0;
    }

    public @Nullable Double maxLatencyMicros() {
        return latencyCount.get() == 0 ? null : latencyMaxNanos.get() / 1000.0;
    }

    public double uptimeSeconds() {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    /** Counters of one inference device. */
    public static final class DeviceStatistics {
        private final int device;
        private final AtomicLong inferred = new AtomicLong();
        private final AtomicLong forwarded = new AtomicLong();
        private final AtomicLong collected = new AtomicLong();
        private final AtomicLong failures = new AtomicLong();
        /** The collector's thread only: the frame sequence expected next from this device. */
        private long expectedNext;

        DeviceStatistics(int device) {
            this.device = device;
        }

        public int device() {
            return device;
        }

        void inferred(long n) {
            inferred.addAndGet(n);
        }

        void forwarded(long n) {
            forwarded.addAndGet(n);
        }

        void recordCollected() {
            collected.incrementAndGet();
        }

        void failure() {
            failures.incrementAndGet();
        }

        void expectFrom(long sequence) {
            expectedNext = sequence;
        }

        long expectedNext() {
            return expectedNext;
        }

        /** Frames this device ran the model on. */
        public long inferred() {
            return inferred.get();
        }

        /** Results it published on its results channel. */
        public long forwarded() {
            return forwarded.get();
        }

        /** Its results the collector took. */
        public long collected() {
            return collected.get();
        }

        /** Its results that failed a check. */
        public long failures() {
            return failures.get();
        }
    }
}

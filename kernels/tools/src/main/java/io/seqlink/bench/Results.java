package io.seqlink.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.seqlink.report.Percentiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one harness run measured, as rows the reports print. Scenarios add rows from the
 * harness thread only; the lists are synchronised anyway because scenario threads report failures.
 * Latencies are microseconds; GB/s are 10^9 bytes per second (the comparator's unit). The rows are
 * what {@link JsonReport} writes (snake_case names; where a member's name differs from the
 * component's, the annotation says so).
 */
final class Results {

    final Map<String, Object> environment = new LinkedHashMap<>();
    final List<SchemeRow> schemes = Collections.synchronizedList(new ArrayList<>());
    final List<CycleRow> cycles = Collections.synchronizedList(new ArrayList<>());
    final List<ThroughputRow> throughputs = Collections.synchronizedList(new ArrayList<>());
    final List<FanOutRow> fanOut = Collections.synchronizedList(new ArrayList<>());
    final List<PipelineRow> pipeline = Collections.synchronizedList(new ArrayList<>());
    final List<CopyRow> copies = Collections.synchronizedList(new ArrayList<>());
    final List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
    final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    final List<ComparatorRunner.Run> comparatorRuns = Collections.synchronizedList(new ArrayList<>());
    /** Scenario ids that ran to their end (each may still hold failures of single measurements). */
    final List<String> scenariosDone = Collections.synchronizedList(new ArrayList<>());

    /** Implementations a row can come from. */
    static final String JAVA = "java-channel";
    static final String CPP = "cpp";

    /**
     * One of the source article's schemes.
     *
     * @param source               {@code comparator} (GPU kernels) or {@code cpu-reference} (Java threads)
     * @param remoteReadsPerRound  loads of producer-resident memory per round, polls and data, as the kernels count them
     * @param controlReadsPerRound the same without the packet words: reads of control words (flag, lock, counter)
     */
    @JsonPropertyOrder({"scheme", "source", "topology", "threads", "packet_bytes", "seconds", "rounds", "gb_per_s", "latency_us"})
    record SchemeRow(String scheme, String source, String topology, int threads, int packetBytes, double seconds, long rounds,
            double gbPerS, @JsonIgnore double p50, @JsonIgnore double p99, @JsonIgnore double p999,
            @JsonProperty("remote_reads_per_frame") double remoteReadsPerRound,
            @JsonProperty("control_reads_per_frame") double controlReadsPerRound, long timeouts, long corrupt) {

        /** The three percentiles the schemes measure, as one member. */
        @JsonProperty("latency_us")
        SchemeLatency latencyUs() {
            return new SchemeLatency(p50, p99, p999);
        }
    }

    /** A scheme's latency percentiles in microseconds. */
    record SchemeLatency(double p50, double p99, double p999) {
    }

    /**
     * Per-frame latency of one cycle implementation at one frame size.
     *
     * @param mode                 {@code cycle}, {@code wait-value}, {@code memcpy-peer}, {@code copy-sync}
     * @param allocBytesPerFrame   Java heap bytes the measuring thread allocated per timed frame (NaN: not Java)
     * @param controlReadsPerFrame consume steps' acquire reads of {@code publish_seq} per frame (device counters; NaN: not counted)
     */
    record CycleRow(String impl, String mode, long frameBytes, @JsonProperty("latency_us") Percentiles latency, long verified,
            long corrupt, double allocBytesPerFrame, double controlReadsPerFrame) {
    }

    /** Pipelined throughput of one implementation at one frame size. */
    record ThroughputRow(String impl, String mode, long frameBytes, long frames, double seconds, double gbPerS, long verified,
            long corrupt, double allocBytesPerFrame, double controlReadsPerFrame) {
    }

    /** One point of the fan-out sweep. */
    record FanOutRow(int consumers, String placement, long frameBytes, @JsonProperty("cycle_latency_us") Percentiles latency,
            long frames, @JsonProperty("gb_per_s_per_consumer") double gbPerS,
            @JsonProperty("control_reads_per_frame_per_consumer") double controlReadsPerFrame, long corrupt) {
    }

    /**
     * One way of running the sample-like pipeline.
     *
     * @param variant   {@code compute-only}, {@code channel} or {@code blocking}
     * @param syncShare {@code 1 - computeOnly / this}: the share of this variant's time that is not compute
     */
    record PipelineRow(String variant, String description, int frames, double seconds,
            @JsonProperty("us_per_frame") double microsPerFrame, double syncShare,
            @JsonProperty("sync_us_per_frame") double syncMicrosPerFrame,
            @JsonProperty("sync_share_paced") double pacedSyncShare,
            @JsonProperty("sync_us_per_frame_paced") double pacedSyncMicrosPerFrame, long corrupt,
            @JsonProperty("consume_rounds") long consumeRounds) {
    }

    /** A large device copy. */
    record CopyRow(String kind, int src, int dst, long bytes, int repeats, double gbPerS) {
    }

    /** A scenario (or part of one) that did not finish. */
    record Failure(String scenario, String message) {
    }

    void fail(String scenario, Throwable t) {
        String msg = firstLine(t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
        Throwable cause = t.getCause();
        if (cause != null && cause != t && (t.getMessage() == null || !t.getMessage().contains(String.valueOf(cause.getMessage())))) {
            msg += " (cause: " + firstLine(cause.toString()) + ")";
        }
        failures.add(new Failure(scenario, msg));
    }

    /** The first line, at most 600 characters: JCuda's messages carry whole nested stack traces. */
    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 600 ? line.substring(0, 600) + "..." : line;
    }

    Optional<CycleRow> cycle(String impl, String mode, long size) {
        synchronized (cycles) {
            return cycles.stream().filter(r -> r.impl.equals(impl) && r.mode.equals(mode) && r.frameBytes == size).findFirst();
        }
    }

    Optional<ThroughputRow> throughput(String impl, String mode, long size) {
        synchronized (throughputs) {
            return throughputs.stream().filter(r -> r.impl.equals(impl) && r.mode.equals(mode) && r.frameBytes == size).findFirst();
        }
    }

    Optional<CopyRow> copy(String kind) {
        synchronized (copies) {
            return copies.stream().filter(r -> r.kind.equals(kind)).findFirst();
        }
    }

    /** The copy bandwidth large frames are judged against: producer -> consumer, which is device-local on one device. */
    Optional<CopyRow> referenceCopy() {
        return copy("producer-to-consumer");
    }

    long corruptFrames() {
        long n = 0;
        for (SchemeRow r : List.copyOf(schemes)) {
            n += r.corrupt;
        }
        for (CycleRow r : List.copyOf(cycles)) {
            n += r.corrupt;
        }
        for (ThroughputRow r : List.copyOf(throughputs)) {
            n += r.corrupt;
        }
        for (FanOutRow r : List.copyOf(fanOut)) {
            n += r.corrupt;
        }
        for (PipelineRow r : List.copyOf(pipeline)) {
            n += r.corrupt;
        }
        return n;
    }
}

package io.seqlink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run as one JSON document ({@code "tool":"seqlink-bench"}): the environment, every row of every
 * scenario with full percentiles, the targets, the failures, and the comparator's raw documents.
 * Units are in the member names: {@code _us}, {@code _gb_per_s} (10^9 B/s), {@code _bytes}.
 */
final class JsonReport {

    static final int VERSION = 1;

    private JsonReport() {
    }

    static Map<String, Object> build(Results r, List<Targets.Verdict> targets) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", "seqlink-bench");
        m.put("version", VERSION);
        m.put("environment", r.environment);
        m.put("scenarios_done", List.copyOf(r.scenariosDone));
        m.put("targets", targets.stream().map(Targets.Verdict::toJson).toList());
        m.put("schemes", map(r.schemes, JsonReport::scheme));
        m.put("cycles", map(r.cycles, JsonReport::cycle));
        m.put("throughput", map(r.throughputs, JsonReport::throughput));
        m.put("fanout", map(r.fanOut, JsonReport::fanOut));
        m.put("pipeline", map(r.pipeline, JsonReport::pipeline));
        m.put("copy", map(r.copies, JsonReport::copy));
        m.put("failures", map(r.failures, f -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("scenario", f.scenario());
            x.put("message", f.message());
            return x;
        }));
        m.put("notes", List.copyOf(r.notes));
        m.put("comparator_runs", List.copyOf(r.comparatorRuns));
        return m;
    }

    private static <T> List<Object> map(List<T> rows, java.util.function.Function<T, Object> f) {
        List<Object> out = new ArrayList<>();
        for (T row : List.copyOf(rows)) {
            out.add(f.apply(row));
        }
        return out;
    }

    private static Object scheme(Results.SchemeRow s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scheme", s.scheme());
        m.put("source", s.source());
        m.put("topology", s.topology());
        m.put("threads", s.threads());
        m.put("packet_bytes", s.packetBytes());
        m.put("seconds", s.seconds());
        m.put("rounds", s.rounds());
        m.put("gb_per_s", s.gbPerS());
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("p50", s.p50());
        lat.put("p99", s.p99());
        lat.put("p999", s.p999());
        m.put("latency_us", lat);
        m.put("remote_reads_per_frame", s.remoteReadsPerRound());
        m.put("control_reads_per_frame", s.controlReadsPerRound());
        m.put("timeouts", s.timeouts());
        m.put("corrupt", s.corrupt());
        return m;
    }

    private static Object cycle(Results.CycleRow c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("impl", c.impl());
        m.put("mode", c.mode());
        m.put("frame_bytes", c.frameBytes());
        m.put("latency_us", c.latency().toJson());
        m.put("verified", c.verified());
        m.put("corrupt", c.corrupt());
        m.put("alloc_bytes_per_frame", c.allocBytesPerFrame());
        m.put("control_reads_per_frame", c.controlReadsPerFrame());
        return m;
    }

    private static Object throughput(Results.ThroughputRow t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("impl", t.impl());
        m.put("mode", t.mode());
        m.put("frame_bytes", t.frameBytes());
        m.put("frames", t.frames());
        m.put("seconds", t.seconds());
        m.put("gb_per_s", t.gbPerS());
        m.put("verified", t.verified());
        m.put("corrupt", t.corrupt());
        m.put("alloc_bytes_per_frame", t.allocBytesPerFrame());
        m.put("control_reads_per_frame", t.controlReadsPerFrame());
        return m;
    }

    private static Object fanOut(Results.FanOutRow f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consumers", f.consumers());
        m.put("placement", f.placement());
        m.put("frame_bytes", f.frameBytes());
        m.put("cycle_latency_us", f.latency().toJson());
        m.put("frames", f.frames());
        m.put("gb_per_s_per_consumer", f.gbPerS());
        m.put("control_reads_per_frame_per_consumer", f.controlReadsPerFrame());
        m.put("corrupt", f.corrupt());
        return m;
    }

    private static Object pipeline(Results.PipelineRow p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("variant", p.variant());
        m.put("description", p.description());
        m.put("frames", p.frames());
        m.put("seconds", p.seconds());
        m.put("us_per_frame", p.microsPerFrame());
        m.put("sync_share", p.syncShare());
        m.put("sync_us_per_frame", p.syncMicrosPerFrame());
        m.put("corrupt", p.corrupt());
        return m;
    }

    private static Object copy(Results.CopyRow c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", c.kind());
        m.put("src", c.src());
        m.put("dst", c.dst());
        m.put("bytes", c.bytes());
        m.put("repeats", c.repeats());
        m.put("gb_per_s", c.gbPerS());
        return m;
    }
}

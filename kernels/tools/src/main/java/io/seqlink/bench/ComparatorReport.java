package io.seqlink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One JSON document of {@code seqlink-cycle-bench} (the C++ comparator), as documented at the top of
 * {@code kernels/tools/src/main/cuda/cycle_bench.cu}, turned into the harness's rows. Version 2 marks each
 * row with a {@code "kind"} (latency or throughput); its {@code channel} rows are the harness's {@code cycle}
 * and {@code throughput}, every other row (naive hand-offs, floor, armed rounds) keeps its own name. Version 1:
 * <pre>
 * {"tool":"seqlink-cycle-bench","version":1,"config":{...},"device":{...},"ok":true,"results":[...]}
 *   cycle / wait-value / memcpy-peer: {"mode","frame_bytes","frames","latency_us":{"p50","p90","p99","p999",
 *       "mean","min","max"},"verified","corrupt"}  (memcpy-peer adds "gb_per_s")
 *   throughput: {"mode","frame_bytes","frames","seconds","frames_per_s","gb_per_s","verified","corrupt"}
 *   scheme: {"mode":"scheme","scheme","slots","threads","packet_bytes","seconds","rounds","gb_per_s",
 *       "latency_us":{"p50","p99","p999"},"remote_reads_per_round","timeouts","corrupt","topology"}
 * </pre>
 * Unknown modes and members are ignored, so a newer comparator does not break the harness.
 */
final class ComparatorReport {

    final Map<String, Object> document;
    final Map<String, Object> device;
    final boolean ok;
    final List<Results.SchemeRow> schemes = new ArrayList<>();
    final List<Results.CycleRow> cycles = new ArrayList<>();
    final List<Results.ThroughputRow> throughputs = new ArrayList<>();

    private ComparatorReport(Map<String, Object> document) {
        this.document = document;
        this.device = Json.object(document, "device");
        this.ok = Boolean.TRUE.equals(document.get("ok"));
    }

    /** Parses a comparator document; throws {@link Json.ParseException} or {@link IllegalArgumentException} naming the problem. */
    @SuppressWarnings("unchecked")
    static ComparatorReport parse(String json) {
        Object root = Json.parse(json, true); // printf may write nan/inf
        if (!(root instanceof Map<?, ?> m) || !"seqlink-cycle-bench".equals(m.get("tool"))) {
            throw new IllegalArgumentException("not a seqlink-cycle-bench document (no \"tool\":\"seqlink-cycle-bench\")");
        }
        ComparatorReport r = new ComparatorReport((Map<String, Object>) m);
        for (Object o : Json.array(m, "results")) {
            if (o instanceof Map<?, ?> result) {
                r.add((Map<String, Object>) result);
            }
        }
        return r;
    }

    private void add(Map<String, Object> r) {
        String kind = Json.text(r, "kind", "");
        String mode = Json.text(r, "mode", "");
        if (kind.equals("throughput")) {
            throughputs.add(new Results.ThroughputRow(Results.CPP, mode.equals("channel") ? "throughput" : mode,
                    Json.integer(r, "frame_bytes", 0), Json.integer(r, "frames", 0), Json.number(r, "seconds"),
                    Json.number(r, "gb_per_s"), Json.integer(r, "verified", 0), Json.integer(r, "corrupt", 0), Double.NaN, Double.NaN));
            return;
        }
        if (kind.equals("latency") && !mode.equals("memcpy-peer")) {
            cycles.add(new Results.CycleRow(Results.CPP, mode.equals("channel") ? "cycle" : mode, Json.integer(r, "frame_bytes", 0),
                    Percentiles.ofJson(Json.object(r, "latency_us"), Json.integer(r, "frames", 0)), Json.integer(r, "verified", 0),
                    Json.integer(r, "corrupt", 0), Double.NaN, Double.NaN));
            return;
        }
        long size = Json.integer(r, "frame_bytes", 0);
        long frames = Json.integer(r, "frames", 0);
        long verified = Json.integer(r, "verified", 0);
        long corrupt = Json.integer(r, "corrupt", 0);
        switch (mode) {
            case "cycle", "wait-value", "memcpy-peer" -> {
                cycles.add(new Results.CycleRow(Results.CPP, mode, size, Percentiles.ofJson(Json.object(r, "latency_us"), frames),
                        verified, corrupt, Double.NaN, Double.NaN));
                if (mode.equals("memcpy-peer")) {
                    throughputs.add(new Results.ThroughputRow(Results.CPP, "memcpy-peer", size, frames, Double.NaN,
                            Json.number(r, "gb_per_s"), verified, corrupt, Double.NaN, Double.NaN));
                }
            }
            case "throughput" -> throughputs.add(new Results.ThroughputRow(Results.CPP, "throughput", size, frames,
                    Json.number(r, "seconds"), Json.number(r, "gb_per_s"), verified, corrupt, Double.NaN, Double.NaN));
            case "scheme" -> schemes.add(scheme(r));
            default -> {
                // sanitize results and future modes: kept in the raw document only
            }
        }
    }

    private static Results.SchemeRow scheme(Map<String, Object> r) {
        int threads = (int) Json.integer(r, "threads", 0);
        int packet = (int) Json.integer(r, "packet_bytes", 0);
        long rounds = Json.integer(r, "rounds", 0);
        long corrupt = Json.integer(r, "corrupt", 0);
        double remote = Json.number(r, "remote_reads_per_round");
        // the kernels count every packet word a lane loads as a remote read: take them out to leave the control reads
        double dataPerRound = rounds == 0 ? 0 : (double) (rounds + corrupt) / rounds * threads * (packet / 8);
        double control = rounds == 0 ? Double.NaN : remote - dataPerRound;
        Map<String, Object> lat = Json.object(r, "latency_us");
        return new Results.SchemeRow(Json.text(r, "scheme", "?"), "comparator", Json.text(r, "topology", ""), threads, packet,
                Json.number(r, "seconds"), rounds, Json.number(r, "gb_per_s"), Json.number(lat, "p50"), Json.number(lat, "p99"),
                Json.number(lat, "p999"), remote, control, Json.integer(r, "timeouts", 0), corrupt);
    }

    /** "NVIDIA H200 (driver 13.0, runtime 12.6)" from the device object, or empty. */
    String deviceSummary() {
        if (device.isEmpty()) {
            return "";
        }
        return Json.text(device, "producer_name", "?") + (Boolean.TRUE.equals(device.get("same_device")) ? ""
                : " -> " + Json.text(device, "consumer_name", "?")) + " (driver " + Json.text(device, "driver", "?")
                + ", runtime " + Json.text(device, "runtime", "?") + ")";
    }
}

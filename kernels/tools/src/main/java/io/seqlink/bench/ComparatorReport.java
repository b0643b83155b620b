package io.seqlink.bench;

import static io.seqlink.report.ReportJson.integer;
import static io.seqlink.report.ReportJson.number;
import static io.seqlink.report.ReportJson.text;

import io.seqlink.report.Percentiles;
import io.seqlink.report.ReportJson;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

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
 * Unknown modes and members are ignored, so a newer comparator does not break the harness. The comparator
 * writes its document with nlohmann/json (a figure it could not measure is {@code null}); read here with
 * Jackson, strictly ({@link ReportJson#read}), a {@code null} figure as NaN.
 */
final class ComparatorReport {

    final JsonNode document;
    final JsonNode device;
    final boolean ok;
    final List<Results.SchemeRow> schemes = new ArrayList<>();
    final List<Results.CycleRow> cycles = new ArrayList<>();
    final List<Results.ThroughputRow> throughputs = new ArrayList<>();

    private ComparatorReport(JsonNode document) {
        this.document = document;
        this.device = document.path("device");
        this.ok = document.path("ok").asBoolean(false);
    }

    /**
     * Parses a comparator document; throws {@link JacksonException} (not JSON: the line and column) or
     * {@link IllegalArgumentException} (not the comparator's) naming the problem.
     */
    static ComparatorReport parse(String json) {
        JsonNode root = ReportJson.read(json);
        if (!root.isObject() || !"seqlink-cycle-bench".equals(text(root, "tool", ""))) {
            throw new IllegalArgumentException("not a seqlink-cycle-bench document (no \"tool\":\"seqlink-cycle-bench\")");
        }
        ComparatorReport r = new ComparatorReport(root);
        for (JsonNode result : root.path("results").values()) {
            if (result.isObject()) {
                r.add(result);
            }
        }
        return r;
    }

    private void add(JsonNode r) {
        String kind = text(r, "kind", "");
        String mode = text(r, "mode", "");
        if (kind.equals("throughput")) {
            throughputs.add(new Results.ThroughputRow(Results.CPP, mode.equals("channel") ? "throughput" : mode,
                    integer(r, "frame_bytes", 0), integer(r, "frames", 0), number(r, "seconds"),
                    number(r, "gb_per_s"), integer(r, "verified", 0), integer(r, "corrupt", 0), Double.NaN, Double.NaN));
            return;
        }
        if (kind.equals("latency") && !mode.equals("memcpy-peer")) {
            cycles.add(new Results.CycleRow(Results.CPP, mode.equals("channel") ? "cycle" : mode, integer(r, "frame_bytes", 0),
                    latency(r.path("latency_us"), integer(r, "frames", 0)), integer(r, "verified", 0),
                    integer(r, "corrupt", 0), Double.NaN, Double.NaN));
            return;
        }
        long size = integer(r, "frame_bytes", 0);
        long frames = integer(r, "frames", 0);
        long verified = integer(r, "verified", 0);
        long corrupt = integer(r, "corrupt", 0);
        switch (mode) {
            case "cycle", "wait-value", "memcpy-peer" -> {
                cycles.add(new Results.CycleRow(Results.CPP, mode, size, latency(r.path("latency_us"), frames), verified, corrupt,
                        Double.NaN, Double.NaN));
                if (mode.equals("memcpy-peer")) {
                    throughputs.add(new Results.ThroughputRow(Results.CPP, "memcpy-peer", size, frames, Double.NaN,
                            number(r, "gb_per_s"), verified, corrupt, Double.NaN, Double.NaN));
                }
            }
            case "throughput" -> throughputs.add(new Results.ThroughputRow(Results.CPP, "throughput", size, frames,
                    number(r, "seconds"), number(r, "gb_per_s"), verified, corrupt, Double.NaN, Double.NaN));
            case "scheme" -> schemes.add(scheme(r));
            default -> {
                // sanitize results and future modes: kept in the raw document only
            }
        }
    }

    /** A {@code latency_us} object; absent members are NaN, an absent object is {@link Percentiles#EMPTY}. */
    private static Percentiles latency(JsonNode m, long count) {
        if (!m.isObject() || m.isEmpty()) {
            return Percentiles.EMPTY;
        }
        return new Percentiles(count, number(m, "p50"), number(m, "p90"), number(m, "p99"), number(m, "p999"), number(m, "mean"),
                number(m, "min"), number(m, "max"));
    }

    private static Results.SchemeRow scheme(JsonNode r) {
        int threads = (int) integer(r, "threads", 0);
        int packet = (int) integer(r, "packet_bytes", 0);
        long rounds = integer(r, "rounds", 0);
        long corrupt = integer(r, "corrupt", 0);
        double remote = number(r, "remote_reads_per_round");
        // the kernels count every packet word a lane loads as a remote read: take them out to leave the control reads
        double dataPerRound = rounds == 0 ? 0 : (double) (rounds + corrupt) / rounds * threads * (packet / 8);
        double control = rounds == 0 ? Double.NaN : remote - dataPerRound;
        JsonNode lat = r.path("latency_us");
        return new Results.SchemeRow(text(r, "scheme", "?"), "comparator", text(r, "topology", ""), threads, packet,
                number(r, "seconds"), rounds, number(r, "gb_per_s"), number(lat, "p50"), number(lat, "p99"), number(lat, "p999"),
                remote, control, integer(r, "timeouts", 0), corrupt);
    }

    /** "NVIDIA H200 (driver 13.0, runtime 12.6)" from the device object, or empty. */
    String deviceSummary() {
        if (!device.isObject() || device.isEmpty()) {
            return "";
        }
        return text(device, "producer_name", "?") + (device.path("same_device").asBoolean(false) ? ""
                : " -> " + text(device, "consumer_name", "?")) + " (driver " + text(device, "driver", "?")
                + ", runtime " + text(device, "runtime", "?") + ")";
    }
}

package io.seqlink.bench;

import io.seqlink.report.Percentiles;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** The run as Markdown: what it ran on, the targets, then one table per scenario. Printed to stdout and saved. */
final class MarkdownReport {

    /** The source article's table (seed notes): GB/s and p99 µs on two GPUs, 64 B packets, 256 + 256 threads, 30 s. */
    private static final Map<String, double[]> ARTICLE = Map.of("mutex-spin", new double[] {2.8, 1840}, "flag-spin",
            new double[] {4.9, 320}, "lock-free-counter", new double[] {11.6, 42}, "counter-double-buffer", new double[] {12.1, 38});

    private MarkdownReport() {
    }

    static String render(Results r, List<Targets.Verdict> targets) {
        StringBuilder sb = new StringBuilder();
        header(sb, r);
        targets(sb, targets);
        schemes(sb, r);
        cycles(sb, r);
        throughput(sb, r);
        alternatives(sb, r);
        fanOut(sb, r);
        pipeline(sb, r);
        HostPathSection.render(sb, r);
        copies(sb, r);
        problems(sb, r);
        return sb.toString();
    }

    private static void header(StringBuilder sb, Results r) {
        Map<String, Object> e = r.environment;
        sb.append("# seqlink benchmark\n\n");
        sb.append("- date: ").append(e.get("date")).append('\n');
        sb.append("- backend: ").append(e.getOrDefault("backend_description", "did not open")).append(" (")
                .append(e.getOrDefault("backend_reason", "see Failures")).append(")\n");
        sb.append("- placement: ").append(e.getOrDefault("topology", "-")).append('\n');
        if (e.get("transports") instanceof List<?> tr && !tr.isEmpty()) {
            sb.append("- channel transports: ").append(tr).append('\n');
        }
        if (e.get("host_thread_round_trip_ns") instanceof Double rt) {
            sb.append("- host thread round trip (spin ping-pong): ").append(Units.fig(rt)).append(" ns\n");
        }
        if (e.get("link") instanceof Map<?, ?> link) {
            sb.append("- link verdict: ").append(link.get("verdict")).append(" (").append(link.get("reason")).append(")\n");
        }
        sb.append("- comparator: ").append(e.getOrDefault("comparator", "not run")).append('\n');
        sb.append("- host: ").append(e.get("host")).append(", ").append(e.get("cpus")).append(" CPUs, Java ").append(e.get("java"));
        if (e.containsKey("load_average_at_start")) {
            sb.append(", load average ").append(e.get("load_average_at_start")).append(" at start, ")
                    .append(e.getOrDefault("load_average_at_end", "-")).append(" at end");
        }
        sb.append('\n');
        sb.append("- command: `").append(e.get("command")).append("`\n\n");
        sb.append("Latencies in µs; GB/s = 10^9 bytes/s of frame payload. Every Java/C++ ratio compares figures of this run.");
        if ("emulated".equals(e.get("backend"))) {
            sb.append(" **CPU reference**: the emulated backend runs every kernel as Java on this host's CPUs, so its figures "
                    + "describe the protocol's host-side cost on this machine, not a GPU; the targets are the H200's.");
        }
        sb.append("\n\n");
    }

    private static void targets(StringBuilder sb, List<Targets.Verdict> targets) {
        MarkdownTable t = new MarkdownTable("target", "measured", "goal", "verdict", "by how much");
        for (Targets.Verdict v : targets) {
            t.row(v.target(), v.measured(), v.goal(), v.status(), v.margin());
        }
        sb.append("## Targets\n\n").append(t).append('\n');
    }

    private static void schemes(StringBuilder sb, Results r) {
        List<Results.SchemeRow> rows = List.copyOf(r.schemes);
        if (rows.isEmpty()) {
            return;
        }
        Results.SchemeRow first = rows.get(0);
        sb.append("## The article's four schemes\n\n");
        sb.append(first.source().equals("comparator") ? "GPU kernels of the C++ comparator" : "Java CPU reference (one thread per side "
                + "plays the block's lanes and counts every load they make)").append("; ").append(first.topology()).append("; ")
                .append(first.threads()).append(" producer and ").append(first.threads()).append(" consumer threads, ")
                .append(first.packetBytes()).append(" B packets (").append(Units.bytes((long) first.threads() * first.packetBytes()))
                .append(" per round); ").append(Units.fig(first.seconds())).append(" s each. Cross-device reads are counted by the "
                        + "kernels (consumer loads of producer memory): 'control' excludes the packet words, 'all' includes them.\n\n");
        MarkdownTable t = new MarkdownTable("scheme", ">GB/s", ">p50 µs", ">p99 µs", ">p99.9 µs", ">control reads/frame",
                ">all reads/frame", ">rounds", ">timeouts", ">corrupt", ">article GB/s", ">article p99 µs");
        for (Results.SchemeRow s : rows) {
            double[] a = ARTICLE.getOrDefault(s.scheme(), new double[] {Double.NaN, Double.NaN});
            t.row(s.scheme(), Units.fig(s.gbPerS()), Units.fig(s.p50()), Units.fig(s.p99()), Units.fig(s.p999()),
                    Units.fig(s.controlReadsPerRound()), Units.fig(s.remoteReadsPerRound()), s.rounds(), s.timeouts(), s.corrupt(),
                    Units.fig(a[0]), Units.fig(a[1]));
        }
        sb.append(t).append('\n');
    }

    private static TreeSet<Long> sizes(Results r) {
        TreeSet<Long> sizes = new TreeSet<>();
        List.copyOf(r.cycles).forEach(c -> sizes.add(c.frameBytes()));
        List.copyOf(r.throughputs).forEach(c -> sizes.add(c.frameBytes()));
        return sizes;
    }

    private static void cycles(StringBuilder sb, Results r) {
        MarkdownTable t = new MarkdownTable(">frame", ">Java p50", ">Java p99", ">Java p99.9", ">C++ p50", ">C++ p99", ">C++ p99.9",
                ">Java/C++ p50", ">Java/C++ p99", ">alloc B/frame", ">reads/frame", ">verified", ">corrupt");
        for (long size : sizes(r)) {
            Optional<Results.CycleRow> j = r.cycle(Results.JAVA, "cycle", size);
            Optional<Results.CycleRow> c = r.cycle(Results.CPP, "cycle", size);
            if (j.isEmpty() && c.isEmpty()) {
                continue;
            }
            Percentiles jl = j.map(Results.CycleRow::latency).orElse(Percentiles.EMPTY);
            Percentiles cl = c.map(Results.CycleRow::latency).orElse(Percentiles.EMPTY);
            t.row(Units.bytes(size), Units.fig(jl.p50()), Units.fig(jl.p99()), Units.fig(jl.p999()), Units.fig(cl.p50()),
                    Units.fig(cl.p99()), Units.fig(cl.p999()), Units.fig(jl.p50() / cl.p50()), Units.fig(jl.p99() / cl.p99()),
                    j.map(x -> Units.fig(x.allocBytesPerFrame())).orElse("-"), j.map(x -> Units.fig(x.controlReadsPerFrame())).orElse("-"),
                    j.map(x -> (Object) x.verified()).orElse("-") + c.map(x -> " / " + x.verified()).orElse(""),
                    j.map(x -> (Object) x.corrupt()).orElse("-") + c.map(x -> " / " + x.corrupt()).orElse(""));
        }
        if (t.isEmpty()) {
            return;
        }
        sb.append("## Publish -> consume -> ack, one frame in flight\n\n");
        sb.append("Per frame: fill (kernel) + length + publish on the producer; the host sees the publish; consume (copy) + "
                + "checksum (kernel) + ack on the consumer; the host sees the ack. Java: the public channel API with a device "
                + "listener. C++: the comparator's `cycle` mode, the same kernels launched by hand. alloc: Java heap bytes the "
                + "measuring thread allocated per timed frame. reads/frame: the consume steps' acquire reads of `publish_seq` "
                + "(device counters). verified / corrupt: Java / C++.\n\n");
        sb.append(t).append('\n');
    }

    private static void throughput(StringBuilder sb, Results r) {
        Optional<Results.CopyRow> copy = r.referenceCopy();
        MarkdownTable t = new MarkdownTable(">frame", ">Java GB/s", ">C++ GB/s", ">C++/Java", ">Java batched GB/s",
                ">memcpy-peer GB/s", ">Java % of copy", ">batched % of copy", ">alloc B/frame", ">reads/frame", ">corrupt");
        for (long size : sizes(r)) {
            Optional<Results.ThroughputRow> j = r.throughput(Results.JAVA, "throughput", size);
            Optional<Results.ThroughputRow> c = r.throughput(Results.CPP, "throughput", size);
            Optional<Results.ThroughputRow> m = r.throughput(Results.CPP, "memcpy-peer", size);
            double bg = r.throughput(Results.JAVA, "batched", size).map(Results.ThroughputRow::gbPerS).orElse(Double.NaN);
            if (j.isEmpty() && c.isEmpty()) {
                continue;
            }
            double jg = j.map(Results.ThroughputRow::gbPerS).orElse(Double.NaN);
            double cg = c.map(Results.ThroughputRow::gbPerS).orElse(Double.NaN);
            t.row(Units.bytes(size), Units.fig(jg), Units.fig(cg), Units.fig(cg / jg), Units.fig(bg),
                    m.map(x -> Units.fig(x.gbPerS())).orElse("-"), copy.map(x -> Units.percent(jg / x.gbPerS())).orElse("-"),
                    copy.map(x -> Units.percent(bg / x.gbPerS())).orElse("-"), j.map(x -> Units.fig(x.allocBytesPerFrame())).orElse("-"),
                    j.map(x -> Units.fig(x.controlReadsPerFrame())).orElse("-"),
                    j.map(x -> (Object) x.corrupt()).orElse("-") + c.map(x -> " / " + x.corrupt()).orElse(""));
        }
        if (t.isEmpty()) {
            return;
        }
        sb.append("## Pipelined throughput\n\n");
        sb.append("A producer thread publishes frame after frame under lossless backpressure; a consumer thread takes up to a "
                + "publish batch per round; fill kernel per frame on the producer, checksum kernel per frame on the consumer "
                + "(C++: the comparator's `throughput` mode, the same work). Batched: the channel with no per-frame kernel, a "
                + "publish per batch, a consume + ack per round (its transport ceiling; the consume still copies every byte). "
                + "% of copy: over the producer -> consumer copy bandwidth measured below.\n\n");
        sb.append(t).append('\n');
    }

    private static void alternatives(StringBuilder sb, Results r) {
        MarkdownTable t = new MarkdownTable(">frame", ">channel (Java)", ">C++ cycle", ">C++ cuStreamWaitValue64 pre-armed",
                ">C++ cuMemcpyPeerAsync + event", ">Java copy + stream sync");
        for (long size : sizes(r)) {
            String[] cells = {pair(r.cycle(Results.JAVA, "cycle", size)), pair(r.cycle(Results.CPP, "cycle", size)),
                pair(r.cycle(Results.CPP, "wait-value", size)), pair(r.cycle(Results.CPP, "memcpy-peer", size)),
                pair(r.cycle(Results.JAVA, "copy-sync", size))};
            if (cells[2].equals("-") && cells[3].equals("-") && cells[4].equals("-")) {
                continue;
            }
            t.row(Units.bytes(size), cells[0], cells[1], cells[2], cells[3], cells[4]);
        }
        if (t.isEmpty()) {
            return;
        }
        sb.append("## The alternatives a user would otherwise pick (latency per frame, p50 / p99 µs)\n\n");
        sb.append("Pre-armed: the consumer's work is enqueued before the frame exists, behind `cuStreamWaitValue64` on the publish "
                + "mirror. memcpy-peer: `cuMemcpyPeerAsync` + event record + event synchronise (moves the data, no protocol). Java copy "
                + "+ stream sync: `DeviceStream.copy` then `synchronize()`.\n\n");
        sb.append(t).append('\n');
    }

    private static String pair(Optional<Results.CycleRow> row) {
        return row.filter(x -> x.latency().measured())
                .map(x -> Units.fig(x.latency().p50()) + " / " + Units.fig(x.latency().p99())).orElse("-");
    }

    private static void fanOut(StringBuilder sb, Results r) {
        List<Results.FanOutRow> rows = List.copyOf(r.fanOut);
        if (rows.isEmpty()) {
            return;
        }
        sb.append("## Fan-out: one producer, 1 to N consumers\n\n");
        sb.append("Bound through the backend SPI (a channel takes one consumer per device, the sweep also runs as streams of one "
                + "GPU). Cycle: one frame until every consumer acked it. GB/s: payload delivered to each consumer, pipelined, one "
                + "host thread per consumer.\n\n");
        MarkdownTable t = new MarkdownTable(">consumers", "placement", ">frame", ">cycle p50 µs", ">cycle p99 µs", ">GB/s per consumer",
                ">reads/frame/consumer", ">corrupt");
        for (Results.FanOutRow f : rows) {
            t.row(f.consumers(), f.placement(), Units.bytes(f.frameBytes()), Units.fig(f.latency().p50()), Units.fig(f.latency().p99()),
                    Units.fig(f.gbPerS()), Units.fig(f.controlReadsPerFrame()), f.corrupt());
        }
        sb.append(t).append('\n');
    }

    private static void pipeline(StringBuilder sb, Results r) {
        List<Results.PipelineRow> rows = List.copyOf(r.pipeline);
        if (rows.isEmpty()) {
            return;
        }
        sb.append("## Share of pipeline time spent in synchronisation\n\n");
        sb.append("Expand (producer) -> publish -> integer matvec + checksum (consumer) -> ack: the shape of the sample's "
                + "normalise -> matvec pipeline. ").append(rows.get(0).description())
                .append(". Share = 1 - compute-only time / variant time; the fastest of ").append(PipelineBench.REPEATS)
                .append(" interleaved runs each; \"over paced\": over the compute-paced floor, whose producer runs at the pipeline's "
                        + "rate beside the consumer, as a channel's does (on one GPU that alone costs the consumer time). The article "
                        + "measured 18% with locks and 2.1% lock-free on its 8-GPU pipeline; the share falls as the compute per frame "
                        + "grows, so the sync µs per frame is the portable figure.\n\n");
        MarkdownTable t = new MarkdownTable("variant", ">frames", ">seconds", ">µs/frame", ">sync share", ">sync µs/frame",
                ">share over paced", ">µs/frame over paced", ">corrupt", ">consume rounds");
        for (Results.PipelineRow p : rows) {
            t.row(p.variant(), p.frames(), Units.fig(p.seconds()), Units.fig(p.microsPerFrame()), Units.percent(p.syncShare()),
                    Units.fig(p.syncMicrosPerFrame()), Units.percent(p.pacedSyncShare()), Units.fig(p.pacedSyncMicrosPerFrame()),
                    p.corrupt(), p.consumeRounds() > 0 ? String.valueOf(p.consumeRounds()) : "–");
        }
        sb.append(t).append('\n');
    }

    private static void copies(StringBuilder sb, Results r) {
        List<Results.CopyRow> rows = List.copyOf(r.copies);
        if (rows.isEmpty()) {
            return;
        }
        sb.append("## Copy bandwidth (same run)\n\n");
        sb.append("Back-to-back `DeviceStream.copy` (cuMemcpyAsync) of one buffer; GB/s counts the bytes copied once (not read + "
                + "write).\n\n");
        MarkdownTable t = new MarkdownTable("copy", "devices", ">bytes", ">copies", ">GB/s (best of " + CopyBench.TRIALS + ")");
        for (Results.CopyRow c : rows) {
            t.row(c.kind(), c.src() + " -> " + c.dst(), Units.bytes(c.bytes()), c.repeats(), Units.fig(c.gbPerS()));
        }
        sb.append(t).append('\n');
    }

    private static void problems(StringBuilder sb, Results r) {
        List<Results.Failure> failures = List.copyOf(r.failures);
        List<String> notes = List.copyOf(r.notes);
        if (!failures.isEmpty()) {
            sb.append("## Failures\n\n");
            for (Results.Failure f : failures) {
                sb.append("- **").append(f.scenario()).append("**: ").append(f.message()).append('\n');
            }
            sb.append('\n');
        }
        if (!notes.isEmpty()) {
            sb.append("## Notes\n\n");
            for (String n : notes) {
                sb.append("- ").append(n).append('\n');
            }
            sb.append('\n');
        }
    }
}

package io.seqlink.bench;

import io.seqlink.report.Percentiles;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The Markdown report's section of the {@code host} scenario: per frame size, every latency row (the C++ hand-offs,
 * the Java naive twin, the host listener through the launcher and polled, armed rounds on and off) with its ratio
 * to {@code naive-d2h} of the same run, then the pipelined rows with theirs to {@code naive-d2h-pipelined}.
 */
final class HostPathSection {

    /** The latency rows in the order printed: implementation, mode. */
    private static final List<String[]> CYCLE_ROWS = List.of(new String[] {Results.CPP, HostPathTargets.NAIVE},
            new String[] {Results.CPP, "d2h-flag"}, new String[] {Results.CPP, "zero-copy"},
            new String[] {Results.CPP, "zero-copy-memop"}, new String[] {Results.JAVA, HostPathTargets.NAIVE}, new String[] {Results.JAVA, "host-launcher"},
            new String[] {Results.JAVA, "host-launcher-unarmed"}, new String[] {Results.JAVA, "host-polled"},
            new String[] {Results.JAVA, "host-polled-unarmed"});
    /** The pipelined rows in the order printed. */
    private static final List<String[]> THROUGHPUT_ROWS = List.of(new String[] {Results.CPP, HostPathTargets.NAIVE_PIPELINED},
            new String[] {Results.CPP, "zero-copy-pipelined"}, new String[] {Results.CPP, "zero-copy-memop-pipelined"},
            new String[] {Results.JAVA, HostPathTargets.NAIVE_PIPELINED},
            new String[] {Results.JAVA, "host-launcher"}, new String[] {Results.JAVA, "host-launcher-unarmed"},
            new String[] {Results.JAVA, "host-polled"}, new String[] {Results.JAVA, "host-polled-unarmed"});

    private HostPathSection() {
    }

    static void render(StringBuilder sb, Results r) {
        MarkdownTable lat = new MarkdownTable(">frame", "impl", "row", ">p50", ">p99", ">p99.9", ">÷ naive-d2h p50", ">÷ naive-d2h p99",
                ">alloc B/frame", ">consume steps/frame", ">verified", ">corrupt");
        MarkdownTable tp = new MarkdownTable(">frame", "impl", "row", ">GB/s", ">÷ naive-d2h-pipelined", ">alloc B/frame",
                ">consume steps/frame", ">verified", ">corrupt");
        for (long size : sizes(r)) {
            Optional<Results.CycleRow> ref = r.cycle(Results.CPP, HostPathTargets.NAIVE, size)
                    .or(() -> r.cycle(Results.JAVA, HostPathTargets.NAIVE, size));
            Percentiles base = ref.map(Results.CycleRow::latency).orElse(Percentiles.EMPTY);
            for (String[] key : CYCLE_ROWS) {
                r.cycle(key[0], key[1], size).ifPresent(c -> lat.row(Units.bytes(size), impl(c.impl()), c.mode(),
                        Units.fig(c.latency().p50()), Units.fig(c.latency().p99()), Units.fig(c.latency().p999()),
                        Units.fig(c.latency().p50() / base.p50()), Units.fig(c.latency().p99() / base.p99()),
                        Units.fig(c.allocBytesPerFrame()), Units.fig(c.controlReadsPerFrame()), c.verified(), c.corrupt()));
            }
            double tpBase = r.throughput(Results.CPP, HostPathTargets.NAIVE_PIPELINED, size)
                    .or(() -> r.throughput(Results.JAVA, HostPathTargets.NAIVE_PIPELINED, size))
                    .map(Results.ThroughputRow::gbPerS).orElse(Double.NaN);
            for (String[] key : THROUGHPUT_ROWS) {
                r.throughput(key[0], key[1], size).ifPresent(t -> tp.row(Units.bytes(size), impl(t.impl()), t.mode(),
                        Units.fig(t.gbPerS()), Units.fig(t.gbPerS() / tpBase), Units.fig(t.allocBytesPerFrame()),
                        Units.fig(t.controlReadsPerFrame()), t.verified(), t.corrupt()));
            }
        }
        if (lat.isEmpty() && tp.isEmpty()) {
            return;
        }
        sb.append("## Host listeners against the hand-written device-to-host copy\n\n");
        sb.append("The frame is the pattern of its sequence, written by a fill kernel on the producer; every row checks the "
                + "first and last word of every frame as it lands (recorded, compared after the run) and checksums a sample "
                + "of frames outside the time taken (verified). C++ (`seqlink-cycle-bench --mode host`): `naive-d2h` fill + "
                + "`cudaMemcpyAsync` D2H into pinned memory + `cudaStreamSynchronize`; `d2h-flag` the copy then "
                + "`cuStreamWriteValue64` of a host word the host spins on; `zero-copy` the fill kernel writes into mapped "
                + "host memory and release-stores the word; `zero-copy-memop` the plain fill kernel into mapped host memory, "
                + "then `cuStreamWriteValue64` of the word (how a channel's host ring publishes). Java `naive-d2h`: the same steps through the backend SPI. "
                + "`host-launcher`: a host listener subscribed on the consumer's port of a started runtime, its frames "
                + "delivered by the launcher's device loop (the Spring starter's way, default launcher settings); "
                + "`host-polled`: the measuring thread polls the port; `-unarmed`: the channel's armed rounds off. Latency "
                + "(µs, one frame in flight): from the claim until the listener checked the frame. ÷ naive-d2h: over the C++ "
                + "row of this run (the Java row where the comparator did not run). alloc: heap bytes per timed frame of the "
                + "measuring thread and, for `host-launcher`, the launcher's loop thread. consume steps/frame: the consumer's "
                + "device consume steps (its snapshot).\n\n");
        sb.append(lat).append('\n');
        if (!tp.isEmpty()) {
            sb.append("Pipelined: frames back to back (C++ and Java naive: one host slot per frame in flight, as many as the "
                    + "channel's ring has slots; the channel: a producer thread under lossless backpressure), GB/s of payload "
                    + "until the last frame was checked. verified: the checksums of frames after the timed ones (the channel) "
                    + "or of those the host ring still holds (naive).\n\n");
            sb.append(tp).append('\n');
        }
    }

    private static String impl(String impl) {
        return impl.equals(Results.CPP) ? "C++" : "Java";
    }

    private static TreeSet<Long> sizes(Results r) {
        TreeSet<Long> sizes = new TreeSet<>();
        List.copyOf(r.cycles).forEach(c -> sizes.add(c.frameBytes()));
        List.copyOf(r.throughputs).forEach(c -> sizes.add(c.frameBytes()));
        return sizes;
    }
}

package io.seqlink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The harness's targets, judged on this run's own numbers: every ratio is taken between figures measured
 * in the same run. A target whose inputs were not measured is {@code NOT MEASURED}, with what to add. The host
 * listener's targets are {@link HostPathTargets}'.
 */
final class Targets {

    static final long TARGET_SIZE = 16384;
    static final double P99_LIMIT_US = 15;
    static final double THROUGHPUT_FLOOR_GBPS = 25;
    static final long LARGE = 1 << 20;
    static final double COPY_SHARE_FLOOR = 0.80;
    static final double JAVA_CPP_LIMIT = 1.25;
    static final double SYNC_SHARE_LIMIT = 0.01;

    /**
     * One target's verdict.
     *
     * @param margin how far from the goal, in words: "19% under the limit", "missed by 2.1x"
     */
    record Verdict(String target, String measured, String goal, String status, String margin) {
    }

    private Targets() {
    }

    static List<Verdict> judge(Results r) {
        List<Verdict> out = new ArrayList<>();
        String kib = Units.bytes(TARGET_SIZE);
        Optional<Results.CycleRow> javaCycle = r.cycle(Results.JAVA, "cycle", TARGET_SIZE);
        out.add(javaCycle.map(c -> atMost("p99 publish -> consumed -> acked, " + kib + " frames (Java channel)", c.latency().p99(),
                P99_LIMIT_US, "us")).orElse(missing("p99 publish -> consumed, " + kib, "add 16K to --sizes and run scenario sweep")));
        Optional<Results.ThroughputRow> javaTp = r.throughput(Results.JAVA, "throughput", TARGET_SIZE);
        out.add(javaTp.map(t -> atLeast("throughput, " + kib + " frames (Java channel, pipelined)", t.gbPerS(), THROUGHPUT_FLOOR_GBPS,
                "GB/s")).orElse(missing("throughput, " + kib, "add 16K to --sizes and run scenario sweep")));

        r.throughput(Results.JAVA, "batched", TARGET_SIZE).ifPresent(t -> out.add(atLeast("throughput, " + kib
                + " frames (Java channel, batched, no per-frame kernels)", t.gbPerS(), THROUGHPUT_FLOOR_GBPS, "GB/s")));

        Optional<Results.CopyRow> copy = r.referenceCopy();
        boolean anyLarge = false;
        for (Results.ThroughputRow t : List.copyOf(r.throughputs)) {
            if (t.impl().equals(Results.JAVA) && t.frameBytes() >= LARGE) { // both Java variants: with kernels and batched
                anyLarge = true;
                if (copy.isPresent()) {
                    double share = t.gbPerS() / copy.get().gbPerS();
                    out.add(atLeastShare("throughput / copy bandwidth, " + Units.bytes(t.frameBytes()) + " frames (Java "
                            + (t.mode().equals("batched") ? "batched" : "with kernels") + ")", share,
                            String.format(Locale.ROOT, "%.1f of %.1f GB/s", t.gbPerS(), copy.get().gbPerS())));
                }
            }
        }
        if (!anyLarge || copy.isEmpty()) {
            out.add(missing("throughput of frames >= 1 MiB / copy bandwidth",
                    "run scenarios sweep and copy with a size of 1M or more in --sizes"));
        }

        Optional<Results.CycleRow> cppCycle = r.cycle(Results.CPP, "cycle", TARGET_SIZE);
        if (javaCycle.isPresent() && cppCycle.isPresent()) {
            out.add(ratio("Java / C++ cycle p50, " + kib, javaCycle.get().latency().p50(), cppCycle.get().latency().p50()));
            out.add(ratio("Java / C++ cycle p99, " + kib, javaCycle.get().latency().p99(), cppCycle.get().latency().p99()));
        } else {
            out.add(missing("Java / C++ cycle latency, " + kib, "run scenarios sweep and comparator on a GPU host (the C++ "
                    + "comparator needs CUDA)"));
        }
        Optional<Results.ThroughputRow> cppTp = r.throughput(Results.CPP, "throughput", TARGET_SIZE);
        if (javaTp.isPresent() && cppTp.isPresent()) {
            out.add(ratio("C++ / Java throughput, " + kib, cppTp.get().gbPerS(), javaTp.get().gbPerS()));
        }

        Optional<Results.PipelineRow> channel = r.pipeline.stream().filter(p -> p.variant().equals("channel")).findFirst();
        out.add(channel.map(p -> atMostShare("synchronisation share of pipeline time (channel)", p.syncShare(),
                String.format(Locale.ROOT, "%.1f us of %.1f us per frame", p.syncMicrosPerFrame(), p.microsPerFrame())))
                .orElse(missing("synchronisation share of pipeline time", "run scenario pipeline")));
        out.add(channel.map(p -> atMostShare("synchronisation share over the paced floor (channel)", p.pacedSyncShare(),
                String.format(Locale.ROOT, "%.1f us of %.1f us per frame", p.pacedSyncMicrosPerFrame(), p.microsPerFrame())))
                .orElse(missing("synchronisation share over the paced floor", "run scenario pipeline")));
        out.addAll(HostPathTargets.judge(r));
        return out;
    }

    /** A target whose inputs this run did not measure, with what to run. */
    static Verdict missing(String target, String how) {
        return new Verdict(target, "-", "-", "NOT MEASURED", how);
    }

    private static Verdict atMost(String target, double v, double limit, String unit) {
        String measured = Units.fig(v) + " " + unit;
        String goal = "<= " + Units.fig(limit) + " " + unit;
        if (Double.isNaN(v)) {
            return new Verdict(target, measured, goal, "NOT MEASURED", "no samples");
        }
        return v <= limit ? new Verdict(target, measured, goal, "PASS", pct(1 - v / limit) + " under the limit")
                : new Verdict(target, measured, goal, "MISS", "over by " + Units.fig(v - limit) + " " + unit + " (" + times(v / limit) + ")");
    }

    private static Verdict atLeast(String target, double v, double floor, String unit) {
        String measured = Units.fig(v) + " " + unit;
        String goal = ">= " + Units.fig(floor) + " " + unit;
        if (Double.isNaN(v)) {
            return new Verdict(target, measured, goal, "NOT MEASURED", "no samples");
        }
        return v >= floor ? new Verdict(target, measured, goal, "PASS", pct(v / floor - 1) + " above the floor")
                : new Verdict(target, measured, goal, "MISS", "short by " + Units.fig(floor - v) + " " + unit + " (" + pct(v / floor)
                        + " of the goal)");
    }

    private static Verdict atLeastShare(String target, double share, String detail) {
        String measured = Units.percent(share) + " (" + detail + ")";
        String goal = ">= " + Units.percent(COPY_SHARE_FLOOR);
        return share >= COPY_SHARE_FLOOR ? new Verdict(target, measured, goal, "PASS", points(share - COPY_SHARE_FLOOR) + " above")
                : new Verdict(target, measured, goal, "MISS", "short by " + points(COPY_SHARE_FLOOR - share));
    }

    private static Verdict atMostShare(String target, double share, String detail) {
        String measured = Units.percent(share) + " (" + detail + ")";
        String goal = "<= " + Units.percent(SYNC_SHARE_LIMIT);
        return share <= SYNC_SHARE_LIMIT ? new Verdict(target, measured, goal, "PASS", points(SYNC_SHARE_LIMIT - share) + " under")
                : new Verdict(target, measured, goal, "MISS", "over by " + points(share - SYNC_SHARE_LIMIT) + " ("
                        + times(share / SYNC_SHARE_LIMIT) + ")");
    }

    private static Verdict ratio(String target, double slow, double fast) {
        double q = slow / fast;
        String measured = String.format(Locale.ROOT, "%.2fx (%s vs %s)", q, Units.fig(slow), Units.fig(fast));
        String goal = "<= " + JAVA_CPP_LIMIT + "x";
        if (Double.isNaN(q) || Double.isInfinite(q)) {
            return new Verdict(target, measured, goal, "NOT MEASURED", "a figure is missing");
        }
        return q <= JAVA_CPP_LIMIT ? new Verdict(target, measured, goal, "PASS", pct(1 - q / JAVA_CPP_LIMIT) + " under the limit")
                : new Verdict(target, measured, goal, "MISS", "over by " + times(q / JAVA_CPP_LIMIT));
    }

    private static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }

    private static String points(double f) {
        return String.format(Locale.ROOT, "%.1f points", 100 * f);
    }

    private static String times(double f) {
        return String.format(Locale.ROOT, "%.2fx the limit", f);
    }
}

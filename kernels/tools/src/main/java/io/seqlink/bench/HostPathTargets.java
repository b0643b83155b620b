package io.seqlink.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The host listener's targets, judged on the {@code host} scenario's rows of this run: the host listener delivered
 * by the launcher with the channel's defaults ({@code host-launcher}) against the hand-written device-to-host copy
 * ({@code naive-d2h}, the C++ row where the comparator ran, else the Java twin, as the verdict says), at 16 KiB and
 * 1 MiB; armed rounds against none; the Java naive row against its C++ twin; the host rows' allocation. Without any
 * host row the whole set is one {@code NOT MEASURED} line naming the scenario.
 */
final class HostPathTargets {

    static final long[] SIZES = {16384, 1 << 20};
    static final double CYCLE_P50_LIMIT = 1.10;
    static final double CYCLE_P99_LIMIT = 1.20;
    static final double PIPELINED_FLOOR = 1.00;
    static final double ARMED_LIMIT = 1.00;
    static final double JAVA_CPP_LIMIT = 1.05;
    /** Bytes per frame below which a row allocates nothing per frame (one-off allocation spread over its frames). */
    static final double ALLOC_LIMIT = 1.0;

    static final String LISTENER = "host-launcher";
    static final String NAIVE = "naive-d2h";
    static final String NAIVE_PIPELINED = "naive-d2h-pipelined";

    private HostPathTargets() {
    }

    static List<Targets.Verdict> judge(Results r) {
        List<Targets.Verdict> out = new ArrayList<>();
        if (!anyHostRow(r)) {
            out.add(Targets.missing("host listener against naive-d2h (cycle, pipelined, armed rounds, Java / C++, B/frame)",
                    "run scenario host: --scenarios host, or bash scripts/gpu/host-path-run.sh on a GPU"));
            return out;
        }
        for (long size : SIZES) {
            String at = ", " + Units.bytes(size);
            String add = "add " + Units.shortBytes(size) + " to --sizes and run scenario host";
            Optional<Results.CycleRow> listener = r.cycle(Results.JAVA, LISTENER, size);
            Optional<Results.CycleRow> naive = r.cycle(Results.CPP, NAIVE, size).or(() -> r.cycle(Results.JAVA, NAIVE, size));
            String naiveName = naive.map(n -> (n.impl().equals(Results.CPP) ? "C++ " : "Java ") + NAIVE).orElse(NAIVE);
            if (listener.isPresent() && naive.isPresent()) {
                out.add(atMost("host listener (launcher, defaults) cycle p50 / " + naiveName + at, listener.get().latency().p50(),
                        naive.get().latency().p50(), CYCLE_P50_LIMIT, "us"));
                out.add(atMost("host listener (launcher, defaults) cycle p99 / " + naiveName + at, listener.get().latency().p99(),
                        naive.get().latency().p99(), CYCLE_P99_LIMIT, "us"));
            } else {
                out.add(Targets.missing("host listener cycle / naive-d2h" + at, add));
            }
            Optional<Results.ThroughputRow> listenerTp = r.throughput(Results.JAVA, LISTENER, size);
            Optional<Results.ThroughputRow> naiveTp = r.throughput(Results.CPP, NAIVE_PIPELINED, size)
                    .or(() -> r.throughput(Results.JAVA, NAIVE_PIPELINED, size));
            if (listenerTp.isPresent() && naiveTp.isPresent()) {
                String name = (naiveTp.get().impl().equals(Results.CPP) ? "C++ " : "Java ") + NAIVE_PIPELINED;
                out.add(atLeast("host listener (launcher, defaults) pipelined / " + name + at, listenerTp.get().gbPerS(),
                        naiveTp.get().gbPerS(), PIPELINED_FLOOR, "GB/s"));
            } else {
                out.add(Targets.missing("host listener pipelined / naive-d2h-pipelined" + at, add));
            }
            Optional<Results.CycleRow> unarmed = r.cycle(Results.JAVA, LISTENER + "-unarmed", size);
            Optional<Results.ThroughputRow> unarmedTp = r.throughput(Results.JAVA, LISTENER + "-unarmed", size);
            if (listener.isPresent() && unarmed.isPresent()) {
                out.add(atMost("armed rounds / none, host listener (launcher) cycle p50" + at, listener.get().latency().p50(),
                        unarmed.get().latency().p50(), ARMED_LIMIT, "us"));
            }
            if (listenerTp.isPresent() && unarmedTp.isPresent()) {
                out.add(atLeast("armed rounds / none, host listener (launcher) pipelined" + at, listenerTp.get().gbPerS(),
                        unarmedTp.get().gbPerS(), ARMED_LIMIT, "GB/s"));
            }
            Optional<Results.CycleRow> javaNaive = r.cycle(Results.JAVA, NAIVE, size);
            Optional<Results.CycleRow> cppNaive = r.cycle(Results.CPP, NAIVE, size);
            if (javaNaive.isPresent() && cppNaive.isPresent()) {
                out.add(atMost("Java / C++ naive-d2h cycle p50" + at, javaNaive.get().latency().p50(), cppNaive.get().latency().p50(),
                        JAVA_CPP_LIMIT, "us"));
            } else {
                out.add(Targets.missing("Java / C++ naive-d2h cycle p50" + at, "run scenario host on a GPU host with the comparator"));
            }
        }
        out.add(allocation(r));
        return out;
    }

    private static boolean anyHostRow(Results r) {
        return List.copyOf(r.cycles).stream().anyMatch(c -> isHostRow(c.mode()))
                || List.copyOf(r.throughputs).stream().anyMatch(t -> isHostRow(t.mode()));
    }

    private static boolean isHostRow(String mode) {
        return mode.startsWith("host-") || mode.startsWith(NAIVE);
    }

    /** One row's allocation, named for the verdict. */
    private record Allocation(String row, double bytesPerFrame) {
    }

    /** The most any Java host listener row allocated per frame. */
    private static Targets.Verdict allocation(Results r) {
        String target = "heap bytes per frame, Java host listener rows (the most of any)";
        List<Allocation> rows = new ArrayList<>();
        List.copyOf(r.cycles).stream().filter(c -> c.impl().equals(Results.JAVA) && c.mode().startsWith("host-"))
                .forEach(c -> rows.add(new Allocation(c.mode() + " cycle " + Units.bytes(c.frameBytes()), c.allocBytesPerFrame())));
        List.copyOf(r.throughputs).stream().filter(t -> t.impl().equals(Results.JAVA) && t.mode().startsWith("host-"))
                .forEach(t -> rows.add(new Allocation(t.mode() + " pipelined " + Units.bytes(t.frameBytes()), t.allocBytesPerFrame())));
        String goal = "< " + Units.fig(ALLOC_LIMIT) + " B/frame";
        if (rows.isEmpty()) {
            return Targets.missing(target, "run scenario host");
        }
        Optional<Allocation> worst = rows.stream().filter(a -> !Double.isNaN(a.bytesPerFrame()))
                .max(Comparator.comparingDouble(Allocation::bytesPerFrame));
        if (worst.isEmpty()) {
            return new Targets.Verdict(target, "-", goal, "NOT MEASURED", "no allocation counter in this JVM (jdk.management)");
        }
        boolean unknown = rows.stream().anyMatch(a -> Double.isNaN(a.bytesPerFrame()));
        double b = worst.get().bytesPerFrame();
        String measured = Units.fig(b) + " B/frame (" + worst.get().row() + ")" + (unknown ? "; some rows unknown" : "");
        return b < ALLOC_LIMIT ? new Targets.Verdict(target, measured, goal, "PASS", "nothing allocated per frame")
                : new Targets.Verdict(target, measured, goal, "MISS", "allocates about " + Units.fig(b) + " B a frame");
    }

    /** {@code value / reference} at most {@code limit} (a time: lower is better). */
    private static Targets.Verdict atMost(String target, double value, double reference, double limit, String unit) {
        double q = value / reference;
        String measured = String.format(Locale.ROOT, "%.2fx (%s vs %s %s)", q, Units.fig(value), Units.fig(reference), unit);
        String goal = String.format(Locale.ROOT, "<= %.2fx", limit);
        if (Double.isNaN(q) || Double.isInfinite(q)) {
            return new Targets.Verdict(target, measured, goal, "NOT MEASURED", "a figure is missing");
        }
        return q <= limit ? new Targets.Verdict(target, measured, goal, "PASS", percent(1 - q / limit) + " under the limit")
                : new Targets.Verdict(target, measured, goal, "MISS", String.format(Locale.ROOT, "over by %.2fx the limit", q / limit));
    }

    /** {@code value / reference} at least {@code floor} (a rate: higher is better). */
    private static Targets.Verdict atLeast(String target, double value, double reference, double floor, String unit) {
        double q = value / reference;
        String measured = String.format(Locale.ROOT, "%.2fx (%s vs %s %s)", q, Units.fig(value), Units.fig(reference), unit);
        String goal = String.format(Locale.ROOT, ">= %.2fx", floor);
        if (Double.isNaN(q) || Double.isInfinite(q)) {
            return new Targets.Verdict(target, measured, goal, "NOT MEASURED", "a figure is missing");
        }
        return q >= floor ? new Targets.Verdict(target, measured, goal, "PASS", percent(q / floor - 1) + " above the floor")
                : new Targets.Verdict(target, measured, goal, "MISS", "short by " + percent(1 - q / floor) + " of the reference");
    }

    private static String percent(double f) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }
}

package io.seqlink.sample.cli;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.support.BackendReasons;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyReport;
import io.seqlink.topology.TopologyVerifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verified topology as a plain-text table: one row per ordered device pair, the channels that use
 * it, the verdict, the probe's figures, and whether it meets the required link class. A link is
 * <em>required</em> when a channel uses it; it fails when its verdict is worse than
 * {@code seqlink.topology.required-link-class} or its functional check failed.
 */
public final class TopologyTable {

    private TopologyTable() {
    }

    /**
     * The table and its outcome.
     *
     * @param text     the report, ready to print
     * @param required links that channels use, as "p -> c"
     * @param failed   required links that fail, each with why
     */
    public record Result(String text, List<String> required, List<String> failed) {
        public boolean ok() {
            return failed.isEmpty();
        }
    }

    /**
     * @param runtime          the verified runtime
     * @param required         the required link class to judge by
     * @param configuredPolicy {@code seqlink.topology.on-unsupported} as configured, for the closing advice
     */
    public static Result of(SeqlinkRuntime runtime, LinkClass required, String configuredPolicy) {
        TopologyReport report = runtime.topology();
        Map<String, List<String>> usedBy = new TreeMap<>();
        for (PublishChannel ch : runtime.channels()) {
            for (int c : ch.consumerDevices()) {
                if (c != ch.spec().producer()) {
                    usedBy.computeIfAbsent(key(ch.spec().producer(), c), k -> new ArrayList<>()).add(ch.name());
                }
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("seqlink topology\n");
        out.append(String.format(Locale.ROOT, "  backend    %s (%s)%n", runtime.backendKind().name().toLowerCase(Locale.ROOT),
                BackendReasons.summary(runtime)));
        for (TopologyReport.DeviceSummary d : report.devices()) {
            out.append(String.format(Locale.ROOT, "  device %d   %s, %s%n", d.ordinal(), d.name(), bytes(d.totalMemoryBytes())));
        }
        out.append(String.format(Locale.ROOT, "  required   %s or better on every link a channel uses "
                + "(seqlink.topology.required-link-class)%n", lower(required)));
        out.append(String.format(Locale.ROOT, "  verified   %s in %d ms%n%n", report.verifiedAt(), report.elapsedMillis()));

        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"LINK", "CHANNELS", "VERDICT", "ATOMIC ADD", "ACQUIRE LOAD", "SCALING", "PROBE", "REQUIRED"});
        List<String> requiredLinks = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Map<String, String> reasons = new LinkedHashMap<>();
        for (LinkVerdict v : report.links()) {
            String k = key(v.producer(), v.consumer());
            List<String> channels = usedBy.get(k);
            ProbeMeasurement m = v.probe();
            String probe = m == null ? "-" : m.functionalOk() ? "ok" : "FAILED";
            String verdictCheck;
            if (channels == null) {
                verdictCheck = "not used";
            } else {
                requiredLinks.add(k);
                if (m != null && !m.functionalOk()) {
                    verdictCheck = "FAIL";
                    failed.add(k + ": the functional check failed: " + m.functionalDetail());
                } else if (!v.verdict().satisfies(required)) {
                    verdictCheck = "FAIL";
                    failed.add(k + ": " + lower(v.verdict()) + " is below the required " + lower(required));
                } else {
                    verdictCheck = "ok";
                }
            }
            rows.add(new String[] {k, channels == null ? "-" : String.join(",", channels), lower(v.verdict()),
                    m == null ? "-" : nanos(m.atomicAddLatencyNs()), m == null ? "-" : nanos(m.acquireLoadLatencyNs()),
                    m == null ? "-" : ratio(TopologyVerifier.scalingRatio(m)), probe, verdictCheck});
            reasons.put(k, v.reason());
        }
        if (rows.size() == 1) {
            out.append("  (one device in use: no links to verify; every channel stays on its device)\n");
        } else {
            appendTable(out, rows);
        }
        if (!reasons.isEmpty()) {
            out.append("\nwhy\n");
            reasons.forEach((k, why) -> out.append("  ").append(pad(k, 8)).append(' ').append(why).append('\n'));
        }
        out.append('\n');
        if (requiredLinks.isEmpty()) {
            out.append("RESULT: OK: no channel crosses from one device to another.\n");
        } else if (failed.isEmpty()) {
            out.append(String.format(Locale.ROOT, "RESULT: OK: all %d link(s) the channels use are %s or better.%n",
                    requiredLinks.size(), lower(required)));
        } else {
            out.append(String.format(Locale.ROOT, "RESULT: FAIL: %d of %d link(s) the channels use do not meet %s:%n",
                    failed.size(), requiredLinks.size(), lower(required)));
            failed.forEach(f -> out.append("  ").append(f).append('\n'));
            out.append(String.format(Locale.ROOT, "The service applies seqlink.topology.on-unsupported=%s to them: fail "
                    + "stops startup, fallback uses the link's own class, warn does too and reports DEGRADED.%n"
                    + "See docs/troubleshooting.md for why a link falls short.%n", configuredPolicy));
        }
        return new Result(out.toString(), List.copyOf(requiredLinks), List.copyOf(failed));
    }

    private static void appendTable(StringBuilder out, List<String[]> rows) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int i = 0; i < row.length; i++) {
                line.append(pad(row[i], widths[i])).append(i + 1 < row.length ? "  " : "");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    static String key(int producer, int consumer) {
        return producer + " -> " + consumer;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static String nanos(double ns) {
        if (!Double.isFinite(ns)) {
            return "-";
        }
        return ns < 1000 ? String.format(Locale.ROOT, "%.0f ns", ns) : String.format(Locale.ROOT, "%.2f us", ns / 1000);
    }

    static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "x%.1f", r) : "-";
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.0f GiB", b / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%d MiB", b >> 20);
    }
}

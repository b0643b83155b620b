package io.seqlink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The plot of the run, drawn as SVG by hand (no library on the GPU host): latency percentiles of the
 * cycle against frame size on the left, pipelined throughput against frame size on the right, both
 * log-log, Java against C++, with the copy bandwidth and the targets drawn in.
 */
final class SvgPlot {

    static final int WIDTH = 1160;
    static final int HEIGHT = 500;
    private static final String JAVA_COLOR = "#1f77b4";
    private static final String CPP_COLOR = "#ff7f0e";
    private static final String PEER_COLOR = "#2ca02c";
    private static final String COPY_COLOR = "#7f7f7f";
    private static final String TARGET_COLOR = "#d62728";

    private SvgPlot() {
    }

    /** A named line of (frame size, value) points. */
    record Series(String name, String color, String dash, List<double[]> points) {
    }

    static String render(Results r, String title) {
        TreeSet<Long> sizes = new TreeSet<>();
        List.copyOf(r.cycles).forEach(c -> sizes.add(c.frameBytes()));
        List.copyOf(r.throughputs).forEach(c -> sizes.add(c.frameBytes()));
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(sb, WIDTH / 2.0, 22, title, "middle", 15, "bold");
        if (sizes.isEmpty()) {
            text(sb, WIDTH / 2.0, HEIGHT / 2.0, "no frame-size sweep in this run", "middle", 14, "normal");
            return sb.append("</svg>\n").toString();
        }
        List<Series> latency = new ArrayList<>();
        latency.add(cycleSeries(r, Results.JAVA, "Java p50", JAVA_COLOR, "", sizes, Percentiles::p50));
        latency.add(cycleSeries(r, Results.JAVA, "Java p99", JAVA_COLOR, "6,3", sizes, Percentiles::p99));
        latency.add(cycleSeries(r, Results.JAVA, "Java p99.9", JAVA_COLOR, "2,3", sizes, Percentiles::p999));
        latency.add(cycleSeries(r, Results.CPP, "C++ p50", CPP_COLOR, "", sizes, Percentiles::p50));
        latency.add(cycleSeries(r, Results.CPP, "C++ p99", CPP_COLOR, "6,3", sizes, Percentiles::p99));
        latency.add(cycleSeries(r, Results.CPP, "C++ p99.9", CPP_COLOR, "2,3", sizes, Percentiles::p999));
        List<Series> throughput = new ArrayList<>();
        throughput.add(tpSeries(r, Results.JAVA, "throughput", "Java channel", JAVA_COLOR, sizes, ""));
        throughput.add(tpSeries(r, Results.JAVA, "batched", "Java batched", JAVA_COLOR, sizes, "2,3"));
        throughput.add(tpSeries(r, Results.CPP, "throughput", "C++ comparator", CPP_COLOR, sizes, ""));
        throughput.add(tpSeries(r, Results.CPP, "memcpy-peer", "cuMemcpyPeerAsync", PEER_COLOR, sizes, ""));
        Optional<Results.CopyRow> copy = r.referenceCopy();

        Panel left = new Panel(70, 50, 470, 370, sizes.first(), sizes.last(), latency, List.of(Targets.P99_LIMIT_US));
        left.draw(sb, "cycle latency (µs, log)", latency);
        left.hline(sb, Targets.P99_LIMIT_US, TARGET_COLOR, "target p99 at 16 KiB: " + Units.fig(Targets.P99_LIMIT_US) + " µs");

        List<Double> extra = new ArrayList<>(List.of(Targets.THROUGHPUT_FLOOR_GBPS));
        copy.ifPresent(c -> extra.add(c.gbPerS()));
        Panel right = new Panel(650, 50, 470, 370, sizes.first(), sizes.last(), throughput, extra);
        right.draw(sb, "pipelined throughput (GB/s, log)", throughput);
        copy.ifPresent(c -> right.hline(sb, c.gbPerS(), COPY_COLOR, "copy bandwidth " + Units.fig(c.gbPerS()) + " GB/s (80%: "
                + Units.fig(Targets.COPY_SHARE_FLOOR * c.gbPerS()) + ")"));
        if (sizes.contains(Targets.TARGET_SIZE)) {
            right.marker(sb, Targets.TARGET_SIZE, Targets.THROUGHPUT_FLOOR_GBPS, TARGET_COLOR, "target 25 GB/s at 16 KiB");
        }
        return sb.append("</svg>\n").toString();
    }

    private static Series cycleSeries(Results r, String impl, String name, String color, String dash, TreeSet<Long> sizes,
            ToDoubleFunction<Percentiles> pick) {
        List<double[]> pts = new ArrayList<>();
        for (long s : sizes) {
            r.cycle(impl, "cycle", s).ifPresent(c -> add(pts, s, pick.applyAsDouble(c.latency())));
        }
        return new Series(name, color, dash, pts);
    }

    private static Series tpSeries(Results r, String impl, String mode, String name, String color, TreeSet<Long> sizes,
            String dash) {
        List<double[]> pts = new ArrayList<>();
        for (long s : sizes) {
            r.throughput(impl, mode, s).ifPresent(t -> add(pts, s, t.gbPerS()));
        }
        return new Series(name, color, dash, pts);
    }

    private static void add(List<double[]> pts, long size, double v) {
        if (Double.isFinite(v) && v > 0) {
            pts.add(new double[] {size, v});
        }
    }

    static void text(StringBuilder sb, double x, double y, String s, String anchor, int size, String weight) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" font-weight=\"%s\">",
                x, y, anchor, size, weight)).append(escape(s)).append("</text>\n");
    }

    /** An axis label: 1, 20, 5000, 0.5, 0.02 (no trailing zeros, no exponent for the ranges plotted). */
    static String tick(double v) {
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(1)).stripTrailingZeros().toPlainString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** One log-log panel: x is frame size (powers of two), y spans whole decades around the data. */
    private static final class Panel {
        final double x0;
        final double y0;
        final double w;
        final double h;
        final double lx0;
        final double lx1;
        final double ly0;
        final double ly1;
        final long minSize;
        final long maxSize;

        Panel(double x0, double y0, double w, double h, long minSize, long maxSize, List<Series> series, List<Double> extra) {
            this.x0 = x0;
            this.y0 = y0;
            this.w = w;
            this.h = h;
            this.minSize = minSize;
            this.maxSize = maxSize;
            double lo = Double.MAX_VALUE;
            double hi = -Double.MAX_VALUE;
            for (Series s : series) {
                for (double[] p : s.points) {
                    lo = Math.min(lo, p[1]);
                    hi = Math.max(hi, p[1]);
                }
            }
            for (double e : extra) {
                lo = Math.min(lo, e);
                hi = Math.max(hi, e);
            }
            if (lo > hi) {
                lo = 1;
                hi = 10;
            }
            this.ly0 = Math.floor(Math.log10(lo));
            this.ly1 = Math.max(ly0 + 1, Math.ceil(Math.log10(hi)));
            double a = log2(minSize);
            double b = log2(maxSize);
            this.lx0 = a - 0.5;
            this.lx1 = (b > a ? b : a + 1) + 0.5;
        }

        static double log2(double v) {
            return Math.log(v) / Math.log(2);
        }

        double x(double size) {
            return x0 + (log2(size) - lx0) / (lx1 - lx0) * w;
        }

        double y(double v) {
            return y0 + h - (Math.log10(v) - ly0) / (ly1 - ly0) * h;
        }

        void draw(StringBuilder sb, String yLabel, List<Series> series) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                    + "stroke=\"#333\"/>\n", x0, y0, w, h));
            for (int d = (int) ly0; d <= (int) ly1; d++) {
                for (int m : new int[] {1, 2, 5}) {
                    double v = m * Math.pow(10, d);
                    if (Math.log10(v) > ly1 + 1e-9) {
                        continue;
                    }
                    double yy = y(v);
                    sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x0, yy,
                            x0 + w, yy, m == 1 ? "#ccc" : "#eee"));
                    text(sb, x0 - 6, yy + 4, tick(v), "end", 11, "normal");
                }
            }
            for (long s = Long.highestOneBit(minSize); s <= maxSize; s <<= 1) {
                if (s < minSize) {
                    continue;
                }
                double xx = x(s);
                boolean label = Long.numberOfTrailingZeros(s) % 2 == 0 || s == minSize || s == maxSize;
                sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", xx, y0,
                        xx, y0 + h));
                if (label) {
                    text(sb, xx, y0 + h + 16, Units.shortBytes(s), "middle", 11, "normal");
                }
            }
            text(sb, x0 + w / 2, y0 + h + 36, "frame size (bytes, log)", "middle", 12, "normal");
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
                    + "transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n", x0 - 48, y0 + h / 2, x0 - 48, y0 + h / 2, escape(yLabel)));
            int legend = 0;
            for (Series s : series) {
                if (s.points.isEmpty()) {
                    continue;
                }
                StringBuilder pts = new StringBuilder();
                for (double[] p : s.points) {
                    pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p[0]), y(p[1])));
                }
                String dash = s.dash.isEmpty() ? "" : " stroke-dasharray=\"" + s.dash + "\"";
                sb.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                        pts.toString().trim(), s.color, dash));
                for (double[] p : s.points) {
                    sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", x(p[0]), y(p[1]),
                            s.color));
                }
                double ly = y0 + h + 56 + 16 * (legend / 3);
                double lx = x0 + (legend % 3) * (w / 3);
                sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        + "stroke-width=\"2\"%s/>\n", lx, ly - 4, lx + 24, ly - 4, s.color, dash));
                text(sb, lx + 30, ly, s.name, "start", 11, "normal");
                legend++;
            }
        }

        void hline(StringBuilder sb, double v, String color, String label) {
            double yy = y(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-dasharray=\"4,4\"/>\n", x0, yy, x0 + w, yy, color));
            text(sb, x0 + 6, yy - 4, label, "start", 10, "normal");
        }

        void marker(StringBuilder sb, long size, double v, String color, String label) {
            double xx = x(size);
            double yy = y(v);
            sb.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l6 -10 l-12 0 z\" fill=\"%s\"/>\n", xx, yy, color));
            text(sb, xx + 8, yy - 12, label, "start", 10, "normal");
        }
    }
}

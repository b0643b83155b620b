package io.seqlink.bench;

import io.seqlink.report.Percentiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.math.BigDecimal;
import java.math.MathContext;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYShapeAnnotation;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jspecify.annotations.Nullable;

/**
 * The plot of the run as SVG, drawn by JFreeChart into JFreeSVG: latency percentiles of the cycle
 * against frame size on the left, pipelined throughput against frame size on the right, both log-log,
 * Java against C++, with the copy bandwidth and the targets drawn in. JFreeChart measures
 * text with AWT, so the JVM needs a font (any: fontconfig and e.g. fonts-dejavu-core); without one
 * {@link BenchMain} says so and writes the other reports.
 */
final class BenchPlot {

    static final int WIDTH = 1160;
    static final int HEIGHT = 500;
    private static final int TITLE_HEIGHT = 34;
    private static final Color JAVA_COLOR = new Color(0x1f77b4);
    private static final Color CPP_COLOR = new Color(0xff7f0e);
    private static final Color PEER_COLOR = new Color(0x2ca02c);
    private static final Color COPY_COLOR = new Color(0x7f7f7f);
    private static final Color TARGET_COLOR = new Color(0xd62728);
    private static final float @Nullable [] SOLID = null;
    private static final float[] DASHED = {6, 3};
    private static final float[] DOTTED = {2, 3};

    static {
        // a plot is drawn off screen: never ask for a display
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        // rotated labels as SVG text, not as glyph outlines (which made the file 15 times larger)
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private BenchPlot() {
    }

    /** A named line of (frame size, value) points. */
    record Series(String name, Color color, float @Nullable [] dash, List<double[]> points) {
    }

    static String render(Results r, String title) {
        TreeSet<Long> sizes = new TreeSet<>();
        List.copyOf(r.cycles).forEach(c -> sizes.add(c.frameBytes()));
        List.copyOf(r.throughputs).forEach(c -> sizes.add(c.frameBytes()));
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
        g2.setDefsKeyPrefix("seqlink-plot-"); // stable ids: the same run gives the same file
        g2.setGeomDoubleConverter(v -> String.format(Locale.ROOT, "%.1f", v));
        g2.setColor(Color.WHITE);
        g2.fillRect(0, 0, WIDTH, HEIGHT);
        centred(g2, title, new Font(Font.SANS_SERIF, Font.BOLD, 15), 22);
        if (sizes.isEmpty()) {
            centred(g2, "no frame-size sweep in this run", new Font(Font.SANS_SERIF, Font.PLAIN, 14), HEIGHT / 2);
            return document(g2);
        }
        List<Series> latency = new ArrayList<>();
        latency.add(cycleSeries(r, Results.JAVA, "Java p50", JAVA_COLOR, SOLID, sizes, Percentiles::p50));
        latency.add(cycleSeries(r, Results.JAVA, "Java p99", JAVA_COLOR, DASHED, sizes, Percentiles::p99));
        latency.add(cycleSeries(r, Results.JAVA, "Java p99.9", JAVA_COLOR, DOTTED, sizes, Percentiles::p999));
        latency.add(cycleSeries(r, Results.CPP, "C++ p50", CPP_COLOR, SOLID, sizes, Percentiles::p50));
        latency.add(cycleSeries(r, Results.CPP, "C++ p99", CPP_COLOR, DASHED, sizes, Percentiles::p99));
        latency.add(cycleSeries(r, Results.CPP, "C++ p99.9", CPP_COLOR, DOTTED, sizes, Percentiles::p999));
        List<Series> throughput = new ArrayList<>();
        throughput.add(tpSeries(r, Results.JAVA, "throughput", "Java channel", JAVA_COLOR, sizes, SOLID));
        throughput.add(tpSeries(r, Results.JAVA, "batched", "Java batched", JAVA_COLOR, sizes, DOTTED));
        throughput.add(tpSeries(r, Results.CPP, "throughput", "C++ comparator", CPP_COLOR, sizes, SOLID));
        throughput.add(tpSeries(r, Results.CPP, "memcpy-peer", "cuMemcpyPeerAsync", PEER_COLOR, sizes, SOLID));

        XYPlot left = panel("cycle latency (µs, log)", latency);
        mark(left, Targets.P99_LIMIT_US, TARGET_COLOR, "target p99 at 16 KiB: " + Units.fig(Targets.P99_LIMIT_US) + " µs");
        XYPlot right = panel("pipelined throughput (GB/s, log)", throughput);
        Optional<Results.CopyRow> copy = r.referenceCopy();
        copy.ifPresent(c -> mark(right, c.gbPerS(), COPY_COLOR, "copy bandwidth " + Units.fig(c.gbPerS()) + " GB/s (80%: "
                + Units.fig(Targets.COPY_SHARE_FLOOR * c.gbPerS()) + ")"));
        if (sizes.contains(Targets.TARGET_SIZE)) {
            double x = Targets.TARGET_SIZE;
            double y = Targets.THROUGHPUT_FLOOR_GBPS;
            right.addAnnotation(new XYShapeAnnotation(new Ellipse2D.Double(x / 1.15, y / 1.15, x * (1.15 - 1 / 1.15),
                    y * (1.15 - 1 / 1.15)), new BasicStroke(1), TARGET_COLOR, TARGET_COLOR));
            XYTextAnnotation label = new XYTextAnnotation("target 25 GB/s at 16 KiB", x * 1.3, y);
            label.setTextAnchor(TextAnchor.CENTER_LEFT);
            label.setPaint(TARGET_COLOR);
            right.addAnnotation(label);
            cover(right, y);
        }
        chart(left).draw(g2, new Rectangle(0, TITLE_HEIGHT, WIDTH / 2, HEIGHT - TITLE_HEIGHT));
        chart(right).draw(g2, new Rectangle(WIDTH / 2, TITLE_HEIGHT, WIDTH / 2, HEIGHT - TITLE_HEIGHT));
        return document(g2);
    }

    private static void centred(SVGGraphics2D g2, String text, Font font, int baseline) {
        g2.setFont(font);
        g2.setColor(Color.BLACK);
        g2.drawString(text, (WIDTH - g2.getFontMetrics().stringWidth(text)) / 2, baseline);
    }

    /** The SVG element with an XML declaration and no DOCTYPE (whose DTD a reader would fetch). */
    private static String document(SVGGraphics2D g2) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g2.getSVGElement() + "\n";
    }

    private static JFreeChart chart(XYPlot plot) {
        JFreeChart chart = new JFreeChart(null, new Font(Font.SANS_SERIF, Font.PLAIN, 12), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** One log-log panel: frame size (powers of two) against {@code yLabel}; each series a line with dots. */
    private static XYPlot panel(String yLabel, List<Series> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setDrawSeriesLineAsPath(true);
        for (Series s : series) {
            if (s.points().isEmpty()) {
                continue;
            }
            XYSeries xy = new XYSeries(s.name(), false, true);
            s.points().forEach(p -> xy.add(p[0], p[1]));
            int index = data.getSeriesCount();
            data.addSeries(xy);
            renderer.setSeriesPaint(index, s.color());
            renderer.setSeriesStroke(index, stroke(2f, s.dash()));
            renderer.setSeriesShape(index, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
        }
        LogAxis x = new LogAxis("frame size (bytes, log)");
        x.setBase(2);
        x.setTickUnit(new NumberTickUnit(2));
        x.setMinorTickMarksVisible(false);
        x.setNumberFormatOverride(new SizeFormat());
        LogAxis y = new LogAxis(yLabel);
        y.setSmallestValue(1e-3);
        y.setTickUnit(new NumberTickUnit(1));
        y.setNumberFormatOverride(new PlainFormat());
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xeeeeee));
        plot.setRangeGridlinePaint(new Color(0xcccccc));
        return plot;
    }

    /** A dashed horizontal line at {@code value}, labelled, inside the panel's range. */
    private static void mark(XYPlot plot, double value, Color color, String label) {
        if (!(Double.isFinite(value) && value > 0)) {
            return;
        }
        plot.addRangeMarker(marker(value, color, label));
        cover(plot, value);
    }

    /** Widens the range axis (log) to show {@code value} with a margin: a target line far from the data still shows. */
    private static void cover(XYPlot plot, double value) {
        var axis = plot.getRangeAxis();
        axis.setRange(Math.min(axis.getLowerBound(), value / 2), Math.max(axis.getUpperBound(), value * 2));
    }

    private static ValueMarker marker(double value, Color color, String label) {
        ValueMarker m = new ValueMarker(value, color, stroke(1f, new float[] {4, 4}));
        m.setLabel(label);
        m.setLabelPaint(color);
        m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        return m;
    }

    private static Stroke stroke(float width, float @Nullable [] dash) {
        return dash == null ? new BasicStroke(width)
                : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, dash, 0f);
    }

    private static Series cycleSeries(Results r, String impl, String name, Color color, float @Nullable [] dash, TreeSet<Long> sizes,
            ToDoubleFunction<Percentiles> pick) {
        List<double[]> pts = new ArrayList<>();
        for (long s : sizes) {
            r.cycle(impl, "cycle", s).ifPresent(c -> add(pts, s, pick.applyAsDouble(c.latency())));
        }
        return new Series(name, color, dash, pts);
    }

    private static Series tpSeries(Results r, String impl, String mode, String name, Color color, TreeSet<Long> sizes,
            float @Nullable [] dash) {
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

    /** Tick labels of a value axis: 1, 20, 5000, 0.5, 0.02 (no exponent, no trailing zeros). */
    private static final class PlainFormat extends NumberFormat {

        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double v, StringBuffer to, FieldPosition pos) {
            if (v >= 1) {
                return to.append(String.format(Locale.ROOT, "%.0f", v));
            }
            return to.append(new BigDecimal(v).round(new MathContext(1)).stripTrailingZeros().toPlainString());
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, FieldPosition pos) {
            return to.append(v);
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("tick labels are only written");
        }
    }

    /** Tick labels of the frame-size axis: 64 B, 1 KiB, 16 MiB. */
    private static final class SizeFormat extends NumberFormat {

        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(Units.shortBytes(Math.round(number)));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return to.append(Units.shortBytes(number));
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("tick labels are only written");
        }
    }
}

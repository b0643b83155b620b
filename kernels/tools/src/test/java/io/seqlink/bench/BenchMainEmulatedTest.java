package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.seqlink.report.ReportJson;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;

/**
 * The whole harness on the emulated backend with tiny sizes and durations: every scenario runs, the
 * report has its tables, the JSON is valid and complete, the SVG is well-formed. Nothing here judges
 * a timing: the figures of a CI machine mean nothing, only their presence and consistency do.
 */
class BenchMainEmulatedTest {

    @TempDir
    static Path out;
    static int exitCode;
    static String stdout;
    static String stderr;

    @BeforeAll
    static void runTheHarness() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        exitCode = BenchMain.run(new String[] {"--backend", "emulated", "--out", out.toString(), "--duration", "50ms",
            "--sizes", "64,16K,1M", "--frames", "400", "--warmup", "100", "--pipeline-frames", "10", "--pipeline-pixels", "1024",
            "--pipeline-rows", "8", "--copy-bytes", "1M", "--emulated-devices", "3", "--max-consumers", "2",
            "--ring-budget", "8M", "--bytes-per-size", "64M", "--fanout-bytes", "4K", "--comparator", "none",
            "--transport", "peer-atomic"},
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        stdout = o.toString(StandardCharsets.UTF_8);
        stderr = e.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyScenarioRanWithoutFailureOrCorruption() {
        assertThat(exitCode).as(stderr).isZero();
        assertThat(stdout).doesNotContain("## Failures");
    }

    @Test
    void printsAMarkdownReportWithATablePerScenario() {
        assertThat(stdout).contains("# seqlink benchmark", "## Targets", "## The article's four schemes",
                "## Publish -> consume -> ack", "## Pipelined throughput", "## The alternatives", "## Fan-out",
                "## Share of pipeline time", "## Copy bandwidth");
        assertThat(stdout).contains("| mutex-spin ", "| flag-spin ", "| lock-free-counter ", "| counter-double-buffer ");
        assertThat(stdout).contains("NOT MEASURED"); // the C++ ratio: no comparator on the emulated backend
        assertThat(stdout).containsPattern("\\| (PASS|MISS) ");
        assertThat(Files.exists(out.resolve(BenchMain.MARKDOWN))).isTrue();
    }

    @Test
    void writesValidJsonWithEveryMeasurement() throws Exception {
        JsonNode doc = ReportJson.read(Files.readString(out.resolve(BenchMain.JSON)));

        assertThat(doc.path("tool").asString()).isEqualTo("seqlink-bench");
        assertThat(doc.has("environment") && doc.has("targets") && doc.has("failures")).isTrue();
        assertThat(doc.path("failures").isEmpty()).isTrue();
        assertThat(doc.path("schemes").size()).isEqualTo(4);
        List<JsonNode> cycles = doc.path("cycles").valueStream().filter(c -> "cycle".equals(c.path("mode").asString())).toList();
        assertThat(cycles).extracting(c -> c.path("frame_bytes").asLong()).containsExactly(64L, 16384L, 1048576L);
        assertThat(cycles).allSatisfy(c -> {
            assertThat(c.path("corrupt").asLong()).isZero();
            assertThat(c.path("verified").asLong()).isPositive();
            assertThat(c.path("latency_us").path("p99").isNumber()).isTrue();
            // one acquire read of publish_seq per consume step, counted by the device counters
            assertThat(c.path("control_reads_per_frame").asDouble()).isEqualTo(1.0);
        });
        assertThat(doc.path("throughput").valueStream().map(t -> t.path("mode").asString())).contains("throughput", "batched");
        assertThat(doc.path("fanout").size()).isEqualTo(2);
        assertThat(doc.path("pipeline").valueStream().map(p -> p.path("variant").asString()))
                .containsExactly("compute-only", "compute-paced", "channel", "blocking", "compute+steps");
        assertThat(doc.path("pipeline").get(2).path("consume_rounds").asLong()).as("the channel row counts its rounds").isPositive();
        assertThat(doc.path("copy").isEmpty()).isFalse();
        JsonNode env = doc.path("environment");
        assertThat(env.path("backend").asString()).isEqualTo("emulated");
        assertThat(List.of("date", "topology", "host_thread_round_trip_ns")).allSatisfy(k -> assertThat(env.has(k)).as(k).isTrue());
    }

    @Test
    void theJavaPathAllocatesNothingPerFrame() throws Exception {
        JsonNode doc = ReportJson.read(Files.readString(out.resolve(BenchMain.JSON)));
        // one-off bytes spread over 400 frames are allowed; any per-frame allocation is at least 16 bytes a frame
        assertThat(doc.path("cycles").valueStream()
                .filter(c -> "cycle".equals(c.path("mode").asString()) && c.path("frame_bytes").asLong() <= 16384))
                .hasSize(2)
                .allSatisfy(c -> assertThat(c.path("alloc_bytes_per_frame").asDouble()).isLessThan(8));
    }

    @Test
    void drawsAWellFormedSvgPlot() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document svg = f.newDocumentBuilder().parse(out.resolve(BenchMain.PLOT).toFile());

        assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
        // JFreeChart draws each series' line as one path in a group styled with the series' colour and stroke
        assertThat(seriesLines(svg)).isGreaterThanOrEqualTo(4);
        String text = Files.readString(out.resolve(BenchMain.PLOT));
        assertThat(text).contains("cycle latency", "pipelined throughput", "Java p99", "copy bandwidth");
    }

    /** Groups stroked 2 px wide, unfilled, in a series colour (Java blue, C++ orange), holding a path: the drawn series lines. */
    private static int seriesLines(Document svg) {
        NodeList groups = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        int n = 0;
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            String style = g.getAttribute("style");
            boolean seriesColour = style.contains("stroke:rgb(31,119,180)") || style.contains("stroke:rgb(255,127,14)");
            if (seriesColour && style.contains("stroke-width:2.0") && style.contains("fill:none")
                    && g.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path").getLength() > 0) {
                n++;
            }
        }
        return n;
    }
}

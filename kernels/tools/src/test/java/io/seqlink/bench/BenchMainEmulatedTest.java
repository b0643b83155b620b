package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

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
    @SuppressWarnings("unchecked")
    void writesValidJsonWithEveryMeasurement() throws Exception {
        Object parsed = Json.parse(Files.readString(out.resolve(BenchMain.JSON)));
        Map<String, Object> doc = (Map<String, Object>) parsed;

        assertThat(doc).containsEntry("tool", "seqlink-bench").containsKeys("environment", "targets", "failures");
        assertThat((List<Object>) doc.get("failures")).isEmpty();
        assertThat((List<Object>) doc.get("schemes")).hasSize(4);
        List<Map<String, Object>> cycles = (List<Map<String, Object>>) doc.get("cycles");
        assertThat(cycles).filteredOn(c -> "cycle".equals(c.get("mode"))).extracting(c -> c.get("frame_bytes"))
                .containsExactly(64L, 16384L, 1048576L);
        assertThat(cycles).filteredOn(c -> "cycle".equals(c.get("mode")))
                .allSatisfy(c -> {
                    assertThat((Long) c.get("corrupt")).isZero();
                    assertThat((Long) c.get("verified")).isPositive();
                    assertThat(((Map<String, Object>) c.get("latency_us")).get("p99")).isInstanceOf(Number.class);
                    // one acquire read of publish_seq per consume step, counted by the device counters
                    assertThat(((Number) c.get("control_reads_per_frame")).doubleValue()).isEqualTo(1.0);
                });
        List<Map<String, Object>> tp = (List<Map<String, Object>>) doc.get("throughput");
        assertThat(tp).extracting(t -> t.get("mode")).contains("throughput", "batched");
        assertThat((List<Object>) doc.get("fanout")).hasSize(2);
        assertThat((List<Object>) doc.get("pipeline")).hasSize(3);
        assertThat((List<Object>) doc.get("copy")).isNotEmpty();
        Map<String, Object> env = (Map<String, Object>) doc.get("environment");
        assertThat(env).containsEntry("backend", "emulated").containsKeys("date", "topology", "host_thread_round_trip_ns");
    }

    @Test
    void theJavaPathAllocatesNothingPerFrame() throws Exception {
        Map<String, Object> doc = (Map<String, Object>) Json.parse(Files.readString(out.resolve(BenchMain.JSON)));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> cycles = (List<Map<String, Object>>) doc.get("cycles");
        // one-off bytes spread over 400 frames are allowed; any per-frame allocation is at least 16 bytes a frame
        assertThat(cycles).filteredOn(c -> "cycle".equals(c.get("mode")) && ((Number) c.get("frame_bytes")).longValue() <= 16384)
                .hasSize(2)
                .allSatisfy(c -> assertThat(((Number) c.get("alloc_bytes_per_frame")).doubleValue()).isLessThan(8));
    }

    @Test
    void drawsAWellFormedSvgPlot() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document svg = f.newDocumentBuilder().parse(out.resolve(BenchMain.PLOT).toFile());

        assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").getLength()).isGreaterThanOrEqualTo(4);
        String text = Files.readString(out.resolve(BenchMain.PLOT));
        assertThat(text).contains("cycle latency", "pipelined throughput", "Java p99", "copy bandwidth");
    }
}

package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.report.ReportJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The harness's {@code host} scenario on the emulated backend at tiny sizes: the Java naive rows and every host
 * listener row (through the launcher and polled, armed rounds on and off, cycle and pipelined) run, check every
 * frame, verify a sample, allocate nothing per frame, and reach the Markdown section, the JSON and the targets.
 * Nothing here judges a timing.
 */
class HostPathEmulatedTest {

    static final List<String> LISTENER_MODES = List.of("host-launcher", "host-launcher-unarmed", "host-polled",
            "host-polled-unarmed");
    static final List<Long> SIZES = List.of(64L, 16384L, 1L << 20);

    @TempDir
    static Path out;
    static int exitCode;
    static String stdout;
    static String stderr;
    static JsonNode doc;

    @BeforeAll
    static void runTheHostScenario() throws Exception {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        exitCode = BenchMain.run(new String[] {"--backend", "emulated", "--out", out.toString(), "--scenarios", "host",
            "--sizes", "64,16K,1M", "--frames", "300", "--warmup", "100", "--slots", "16", "--ring-budget", "8M",
            "--bytes-per-size", "32M", "--comparator", "none", "--transport", "peer-atomic"},
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        stdout = o.toString(StandardCharsets.UTF_8);
        stderr = e.toString(StandardCharsets.UTF_8);
        doc = ReportJson.read(Files.readString(out.resolve(BenchMain.JSON)));
    }

    @Test
    void everyRowRanWithoutFailureOrCorruption() {
        assertThat(exitCode).as(stderr).isZero();
        assertThat(doc.path("failures").isEmpty()).as(stdout).isTrue();
        assertThat(doc.path("scenarios_done").valueStream().map(JsonNode::asString)).containsExactly("host");
    }

    @Test
    void theCycleRowsCheckEveryFrameAndVerifyASample() {
        for (long size : SIZES) {
            for (String mode : concat("naive-d2h", LISTENER_MODES)) {
                JsonNode row = row("cycles", mode, size);
                assertThat(row.path("impl").asString()).isEqualTo(Results.JAVA);
                assertThat(row.path("corrupt").asLong()).as(mode + " " + size).isZero();
                assertThat(row.path("verified").asLong()).as(mode + " " + size).isPositive();
                assertThat(row.path("latency_us").path("samples").asLong()).as(mode + " " + size).isPositive();
                assertThat(row.path("latency_us").path("p99").asDouble()).as(mode + " " + size).isPositive();
            }
        }
    }

    @Test
    void thePipelinedRowsMoveEveryFrameAndVerifyTheirTail() {
        for (long size : SIZES) {
            for (String mode : concat("naive-d2h-pipelined", LISTENER_MODES)) {
                JsonNode row = row("throughput", mode, size);
                assertThat(row.path("corrupt").asLong()).as(mode + " " + size).isZero();
                assertThat(row.path("verified").asLong()).as(mode + " " + size).isPositive();
                assertThat(row.path("gb_per_s").asDouble()).as(mode + " " + size).isPositive();
            }
        }
    }

    @Test
    void theHostRowsAllocateNothingPerFrame() {
        // one-off bytes spread over the frames are allowed; anything per frame is at least 16 bytes a frame
        for (long size : List.of(64L, 16384L)) {
            for (String mode : LISTENER_MODES) {
                assertThat(row("cycles", mode, size).path("alloc_bytes_per_frame").asDouble()).as(mode + " cycle " + size).isLessThan(8);
                assertThat(row("throughput", mode, size).path("alloc_bytes_per_frame").asDouble()).as(mode + " pipelined " + size)
                        .isLessThan(8);
            }
            assertThat(row("cycles", "naive-d2h", size).path("alloc_bytes_per_frame").asDouble()).isLessThan(8);
        }
    }

    @Test
    void theReportShowsTheRowsAndJudgesTheTargetsAgainstTheJavaNaiveRow() {
        assertThat(stdout).contains("## Host listeners against the hand-written device-to-host copy", "| host-launcher ",
                "| host-polled-unarmed ", "| naive-d2h-pipelined ", "C++ host rows not run");
        List<JsonNode> host = doc.path("targets").valueStream().filter(t -> t.path("target").asString().contains("host listener")
                || t.path("target").asString().contains("naive-d2h")).toList();
        assertThat(host).filteredOn(t -> t.path("target").asString().contains("cycle p50 / Java naive-d2h")).hasSize(2)
                .allSatisfy(t -> assertThat(t.path("status").asString()).isIn("PASS", "MISS"));
        assertThat(host).filteredOn(t -> t.path("target").asString().contains("pipelined / Java naive-d2h-pipelined")).hasSize(2)
                .allSatisfy(t -> assertThat(t.path("status").asString()).isIn("PASS", "MISS"));
        assertThat(host).filteredOn(t -> t.path("target").asString().startsWith("Java / C++ naive-d2h")).hasSize(2)
                .allSatisfy(t -> assertThat(t.path("status").asString()).isEqualTo("NOT MEASURED"));
        // judged, not asserted: 50 frames of 1 MiB spread a one-off allocation thinly enough only on a GPU's frame counts
        assertThat(doc.path("targets").valueStream().filter(t -> t.path("target").asString().startsWith("heap bytes per frame")))
                .singleElement().satisfies(t -> assertThat(t.path("status").asString()).isIn("PASS", "MISS"));
    }

    private static JsonNode row(String list, String mode, long size) {
        List<JsonNode> rows = doc.path(list).valueStream()
                .filter(r -> r.path("mode").asString().equals(mode) && r.path("frame_bytes").asLong() == size).toList();
        assertThat(rows).as("%s row %s at %d B in %s", list, mode, size, stdout).hasSize(1);
        return rows.get(0);
    }

    private static List<String> concat(String first, List<String> rest) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), rest.stream()).toList();
    }
}

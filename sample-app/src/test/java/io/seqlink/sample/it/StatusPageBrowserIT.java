package io.seqlink.sample.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.sample.web.Await;
import io.seqlink.sample.web.Http;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The status page at {@code /} in a real headless browser (Debian's Chromium; installed by
 * {@code scripts/ensure-chromium.sh} before the integration tests). Chromium loads the page from the
 * packaged jar running with its defaults, runs the page's own JavaScript for a few (virtual) seconds of
 * refreshes, and dumps the DOM it built; the test checks what a person would see: the link matrix with
 * each verdict and measured latency, a card per channel, and charts that hold data.
 */
class StatusPageBrowserIT {

    static SampleProcess sample;
    static Document page;

    @BeforeAll
    static void loadThePage() throws Exception {
        sample = SampleProcess.start("status-page", SampleProcess.emulatedArgs().toArray(String[]::new));
        int port = sample.port();
        // the background source (20 frames/s by default) has brought results back: there is data to draw
        Await.until(Duration.ofSeconds(30), () -> Http.get(port, "/api/pipeline").body(),
                body -> !body.contains("\"collected\":0,"), "the first results at the collector");
        page = Jsoup.parse(dumpDom("http://localhost:" + port + "/"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (sample != null) {
            sample.close();
        }
    }

    @Test
    void thePageRanItsScriptAndRefreshed() {
        Element body = page.body();
        assertThat(body.attr("data-state")).as("the page's script reached the service").isEqualTo("live");
        assertThat(Integer.parseInt(body.attr("data-refreshes"))).as("refreshes").isGreaterThanOrEqualTo(3);
        assertThat(page.getElementById("offline").hasAttr("hidden")).isTrue();
        assertThat(page.getElementById("health").attr("data-status")).isEqualTo("UP");
        assertThat(page.getElementById("backend").attr("data-backend")).isEqualTo("emulated");
        assertThat(page.getElementById("backend").text()).isEqualTo("emulated backend (no GPU)");
    }

    @Test
    void theBackendReasonIsShortAndTheWholeCauseIsInItsTooltip() {
        Element reason = page.getElementById("backend-reason");
        assertThat(reason.text()).isNotBlank().hasSizeLessThanOrEqualTo(100).doesNotContain("Error", "Exception");
        assertThat(reason.attr("title")).as("the whole finding, on hover").isNotBlank();
    }

    @Test
    void theFirstPaintBeforeAnyDataShowsNoPlaceholderSentence() throws Exception {
        Document raw = Jsoup.parse(Http.get(sample.port(), "/").body());
        assertThat(raw.getElementById("required-line").hasAttr("hidden")).isTrue();
        assertThat(raw.getElementById("probe-note").hasAttr("hidden")).isTrue();
        assertThat(page.getElementById("required-line").hasAttr("hidden")).as("shown once data came").isFalse();
    }

    @Test
    void theLinkMatrixShowsEveryVerdictAndTheMeasuredLatencies() {
        Element matrix = page.getElementById("link-matrix");
        assertThat(matrix.select("thead th")).extracting(Element::text)
                .containsExactly("producer \u2193 / consumer \u2192", "device 0", "device 1", "device 2");
        assertThat(matrix.select("td.self")).hasSize(3);
        Map<String, String> verdicts = new LinkedHashMap<>();
        for (Element td : matrix.select("td.link")) {
            verdicts.put(td.attr("data-producer") + "->" + td.attr("data-consumer"), td.attr("data-verdict"));
            assertThat(td.selectFirst(".verdict").text()).isEqualTo(td.attr("data-verdict"));
        }
        // application-emulated.yml: 0-1 NVLink, 0-2 PCIe peer, 1-2 no peer access
        assertThat(verdicts).containsExactlyInAnyOrderEntriesOf(Map.of(
                "0->1", "peer-atomic", "1->0", "peer-atomic",
                "0->2", "peer-copy", "2->0", "peer-copy",
                "1->2", "host-staged", "2->1", "host-staged"));
        // The links the channels use carry the probe's latency when the probe ran on them.
        for (String probed : List.of("0->1", "1->0")) {
            Element td = link(matrix, probed);
            assertThat(td.hasClass("used")).isTrue();
            assertThat(td.attr("data-probed")).isEqualTo("true");
            assertThat(td.selectFirst(".latency").text()).matches("atomic add \\d+(\\.\\d+)? (ns|\u00b5s) \\(emulated\\)");
            assertThat(Double.parseDouble(td.attr("data-atomic-add-ns"))).isPositive();
        }
        // Used links without a probe say why; only unused links read "not probed", as the legend says.
        for (String used : List.of("0->2", "2->0")) {
            assertThat(link(matrix, used).hasClass("used")).isTrue();
            assertThat(link(matrix, used).selectFirst(".latency").text()).isEqualTo("no peer atomics");
        }
        for (String unused : List.of("1->2", "2->1")) {
            assertThat(link(matrix, unused).hasClass("used")).isFalse();
            assertThat(link(matrix, unused).selectFirst(".latency").text()).isEqualTo("not probed");
        }
        assertThat(page.getElementById("probe-note").hasAttr("hidden")).as("emulated figures are labelled").isFalse();
        assertThat(page.getElementById("probe-note").text()).contains("not hardware");
        assertThat(page.getElementById("required-class").text()).isEqualTo("host-staged");
    }

    @Test
    void everyChannelHasACardWithRateAndLagChartsThatHoldData() {
        Elements cards = page.select("#channels article.channel");
        assertThat(cards).extracting(c -> c.attr("data-channel")).containsExactly("frames", "results-1", "results-2");
        for (Element card : cards) {
            String name = card.attr("data-channel");
            assertThat(card.selectFirst("h3").text()).isEqualTo(name);
            assertThat(card.attr("data-state")).isEqualTo("open");
            assertThat(number(card.selectFirst(".figures .published").text())).as(name + " published").isPositive();

            Element rate = card.selectFirst("svg.chart[data-kind=rate]");
            assertThat(Integer.parseInt(rate.attr("data-points"))).as(name + " rate samples").isGreaterThanOrEqualTo(2);
            assertThat(rate.select("polyline")).singleElement().satisfies(line -> assertThat(points(line)).hasSizeGreaterThanOrEqualTo(2));

            Element lag = card.selectFirst("svg.chart[data-kind=lag]");
            Elements series = lag.select("polyline");
            List<String> expected = name.equals("frames") ? List.of("device 1", "device 2") : List.of("device 0");
            assertThat(series).extracting(s -> s.attr("data-series")).containsExactlyElementsOf(expected);
            for (Element s : series) {
                assertThat(points(s)).as(name + " lag " + s.attr("data-series")).hasSizeGreaterThanOrEqualTo(2)
                        .allSatisfy(p -> assertThat(p).matches("\\d+(\\.\\d)?,\\d+(\\.\\d)?"));
            }
            // two consumers at the same lag draw the same line: each series is drawn in its own width and dash pattern,
            // so the one drawn last never hides the other
            assertThat(series).extracting(s -> s.attr("stroke-width") + "/" + s.attr("stroke-dasharray"))
                    .as(name + " lag lines").doesNotHaveDuplicates().noneMatch(style -> style.equals("/"));
        }
        assertThat(page.select("#channels article.channel[data-channel=frames] .meta").text())
                .contains("device 0 \u2192 1, 2").contains("lossless").contains("1: peer-atomic").contains("2: peer-copy");
    }

    @Test
    void thePipelinePanelShowsResultsAndNoFailures() {
        Map<String, String> stats = new LinkedHashMap<>();
        for (Element item : page.select("#pipeline-stats > div")) {
            stats.put(item.attr("data-stat"), item.selectFirst("dd").text());
        }
        assertThat(stats).containsKeys("produced", "collected", "verified (recomputed)", "failures", "device 1 inferred",
                "device 2 inferred");
        assertThat(number(stats.get("collected"))).isPositive();
        assertThat(stats.get("failures")).isEqualTo("0");
    }

    private static Element link(Element matrix, String pair) {
        String[] pc = pair.split("->");
        return matrix.selectFirst("td.link[data-producer=" + pc[0] + "][data-consumer=" + pc[1] + "]");
    }

    private static List<String> points(Element polyline) {
        String p = polyline.attr("points").trim();
        return p.isEmpty() ? List.of() : List.of(p.split("\\s+"));
    }

    private static long number(String shown) {
        return Long.parseLong(shown.replaceAll("[^0-9]", ""));
    }

    /**
     * Runs headless Chromium on {@code url}: its JavaScript runs with a virtual clock, so five seconds of
     * once-a-second refreshes take far less real time, and network fetches hold the clock until they
     * answer. Then it prints the DOM as the script left it.
     */
    static String dumpDom(String url) throws Exception {
        String chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        assertThat(Path.of(chromium)).as("Chromium (scripts/ensure-chromium.sh installs it)").isExecutable();
        Path profile = Files.createTempDirectory("seqlink-chromium");
        Path out = Path.of(System.getProperty("sample.logs", "target/it-logs"), "status-page.dom.html");
        Path err = out.resolveSibling("status-page.chromium.log");
        try {
            List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-quic", "--no-first-run", "--user-data-dir=" + profile,
                    "--virtual-time-budget=5000", "--dump-dom", url));
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("Chromium did not finish within 90 s; see " + err);
            }
            assertThat(p.exitValue()).as("Chromium's exit status; see " + err).isZero();
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}

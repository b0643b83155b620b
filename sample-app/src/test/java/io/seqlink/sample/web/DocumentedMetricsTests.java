package io.seqlink.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.seqlink.sample.pipeline.Pipeline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The Grafana dashboard, the alerting rules (docs/prometheus/seqlink-alerts.yml) and the alerts in
 * docs/operations.md use only metrics the service exports: every {@code seqlink_*} and
 * {@code sample_pipeline_*} name they mention must be in a real scrape of the sample (histogram
 * {@code _bucket} series included), so renaming a meter without updating them fails the build.
 */
@EmulatedSampleTest
class DocumentedMetricsTests {

    static final Path ROOT = Path.of(System.getProperty("seqlink-build.root", "..")).toAbsolutePath().normalize();
    static final Pattern METRIC = Pattern.compile("\\b(?:seqlink|sample_pipeline)_[a-z_]+\\b");
    static final Pattern SERIES = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", Pattern.MULTILINE);

    @LocalServerPort
    int port;

    @Autowired
    Pipeline pipeline;

    Set<String> exported = new TreeSet<>();

    @BeforeEach
    void scrape() throws Exception {
        Http.postJson(port, "/api/frames", "{\"count\": 20}");
        Await.until(Duration.ofSeconds(20), () -> pipeline.statistics().inFlight(), n -> n == 0, "the frames to be collected");
        Matcher m = SERIES.matcher(Http.get(port, "/actuator/prometheus").body());
        while (m.find()) {
            exported.add(m.group(1));
        }
        assertThat(exported).contains("seqlink_channel_published_total");
    }

    @Test
    void theDashboardQueriesOnlyExportedMetrics() throws Exception {
        String json = Files.readString(ROOT.resolve("docs/grafana/seqlink-dashboard.json"), StandardCharsets.UTF_8);
        List<String> exprs = JsonPath.parse(json).read("$..targets[*].expr");
        assertThat(exprs).hasSizeGreaterThan(15);
        Set<String> used = new TreeSet<>();
        exprs.forEach(e -> used.addAll(names(e)));
        assertThat(used).as("metrics the dashboard queries").isNotEmpty().allSatisfy(this::assertExported);
    }

    @Test
    void theDashboardsLatencyQuantilesReadHistogramBuckets() throws Exception {
        String json = Files.readString(ROOT.resolve("docs/grafana/seqlink-dashboard.json"), StandardCharsets.UTF_8);
        List<String> exprs = JsonPath.parse(json).read("$..targets[*].expr");
        assertThat(exprs).anySatisfy(e -> assertThat(e).contains("histogram_quantile(").contains("seqlink_consumer_latency_seconds_bucket"));
        assertThat(exported).contains("seqlink_consumer_latency_seconds_bucket");
    }

    @Test
    void theAlertingRulesUseOnlyExportedMetrics() throws Exception {
        String rules = Files.readString(ROOT.resolve("docs/prometheus/seqlink-alerts.yml"), StandardCharsets.UTF_8);
        Set<String> used = names(rules);
        assertThat(used).as("metrics docs/prometheus/seqlink-alerts.yml uses")
                .contains("seqlink_channel_failed", "seqlink_consumer_dead", "seqlink_consumer_stalled", "seqlink_consumer_lag",
                        "seqlink_link_below_required")
                .allSatisfy(this::assertExported);
    }

    @Test
    void theOperationsGuideNamesOnlyExportedMetrics() throws Exception {
        String md = Files.readString(ROOT.resolve("docs/operations.md"), StandardCharsets.UTF_8);
        Set<String> used = names(md);
        assertThat(used).as("metrics docs/operations.md names").contains("seqlink_consumer_lag", "seqlink_consumer_stalled")
                .allSatisfy(this::assertExported);
    }

    void assertExported(String name) {
        boolean found = exported.contains(name)
                || exported.stream().anyMatch(s -> s.equals(name + "_count") || s.equals(name + "_sum") || s.equals(name + "_max"));
        assertThat(found).as(name + " is exported by the service (see /actuator/prometheus)").isTrue();
    }

    static Set<String> names(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = METRIC.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}

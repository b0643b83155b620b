package io.seqlink.sample.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.seqlink.sample.web.Await;
import io.seqlink.sample.web.Http;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged jar as a separate process on the emulated backend (the default when there is no GPU):
 * frames pushed through both channels over HTTP, then the statistics, health, the seqlink endpoint and
 * the metrics checked against each other; last, a graceful stop.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleJarIT {

    static final int FRAMES = 500;

    static SampleProcess sample;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        List<String> args = new ArrayList<>(SampleProcess.emulatedArgs());
        args.add("--sample.pipeline.source-rate=0"); // only the frames this test sends: exact counts
        sample = SampleProcess.start("sample-jar", args.toArray(String[]::new));
        port = sample.port();
    }

    @AfterAll
    static void stop() throws Exception {
        if (sample != null) {
            sample.close();
        }
    }

    @Test
    @Order(1)
    void framesCrossBothChannelsAndEveryCountAgrees() throws Exception {
        HttpResponse<String> r = Http.postJson(port, "/api/frames", "{\"count\": " + FRAMES + ", \"seed\": 7}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(JsonPath.parse(r.body()).read("$.lastSequence", Long.class)).isEqualTo(FRAMES);

        DocumentContext stats = Await.until(Duration.ofSeconds(60), () -> JsonPath.parse(Http.get(port, "/api/pipeline").body()),
                j -> j.read("$.collected", Long.class) == FRAMES, "all " + FRAMES + " results at the collector");
        assertThat(stats.read("$.produced", Long.class)).isEqualTo(FRAMES);
        assertThat(stats.read("$.inFlight", Long.class)).isZero();
        assertThat(stats.read("$.failures", Long.class)).isZero();
        assertThat(stats.read("$.verifiedFully", Long.class)).isEqualTo(FRAMES);
        assertThat(stats.read("$.inference[?(@.device == 1)].inferred", List.class)).containsExactly(FRAMES / 2);
        assertThat(stats.read("$.inference[?(@.device == 2)].collected", List.class)).containsExactly(FRAMES / 2);

        // The same story from the starter's endpoint: every consumer acknowledged everything it was sent.
        DocumentContext seqlink = JsonPath.parse(Http.get(port, "/actuator/seqlink").body());
        assertThat(seqlink.read("$.backend", String.class)).isEqualTo("emulated");
        assertThat(seqlink.read("$.channels.frames.publishedOnDevice", Long.class)).isEqualTo(FRAMES);
        assertThat(seqlink.read("$.channels.frames.consumers[*].acknowledged", List.class)).containsExactly(FRAMES, FRAMES);
        for (String results : List.of("results-1", "results-2")) {
            assertThat(seqlink.read("$.channels['" + results + "'].publishedOnDevice", Long.class)).isEqualTo(FRAMES / 2);
            assertThat(seqlink.read("$.channels['" + results + "'].consumers[0].acknowledged", Long.class)).isEqualTo(FRAMES / 2);
            assertThat(seqlink.read("$.channels['" + results + "'].consumers[0].listener", String.class))
                    .isEqualTo("collector." + results);
        }
    }

    @Test
    @Order(2)
    void healthIsUpAndSaysTheEmulatedBackendRuns() throws Exception {
        HttpResponse<String> r = Http.get(port, "/actuator/health");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        DocumentContext h = JsonPath.parse(r.body());
        assertThat(h.read("$.status", String.class)).isEqualTo("UP");
        assertThat(h.read("$.components.pipeline.details.backend", String.class)).isEqualTo("emulated");
        assertThat(h.read("$.components.pipeline.details.note", String.class)).contains("no GPU is used");
        assertThat(h.read("$.components.pipeline.details.failures", Long.class)).isZero();
        assertThat(h.read("$.components.seqlink.status", String.class)).isEqualTo("UP");
        // why, in a few words: the loader error's text stays in /actuator/seqlink's backendDetail
        for (String reason : new String[] {h.read("$.components.seqlink.components.topology.details.backendReason"),
                h.read("$.components.pipeline.details.backendReason"),
                JsonPath.parse(Http.get(port, "/api/pipeline").body()).read("$.backendReason")}) {
            assertThat(reason).containsAnyOf("no usable CUDA driver", "the emulated backend was chosen")
                    .doesNotContain("UnsatisfiedLinkError", "cannot open shared object file");
        }
        assertThat(sample.log()).contains("sample pipeline: on the emulated backend");
    }

    @Test
    @Order(3)
    void metricsCountWhatWentThrough() throws Exception {
        DocumentContext published = JsonPath.parse(Http.get(port, "/actuator/metrics/seqlink.channel.published?tag=channel:frames").body());
        assertThat(published.read("$.measurements[0].value", Double.class)).isEqualTo(FRAMES);
        String scrape = Http.get(port, "/actuator/prometheus").body();
        assertThat(scrape)
                .containsPattern("seqlink_consumer_consumed_total\\{[^}]*channel=\"results-1\"[^}]*} 250\\.0")
                .containsPattern("seqlink_consumer_consumed_total\\{[^}]*channel=\"frames\"[^}]*device=\"2\"[^}]*} 500\\.0")
                .containsPattern("seqlink_consumer_lag\\{[^}]*channel=\"frames\"[^}]*} 0\\.0")
                .contains("sample_pipeline_results_verified_total 500.0")
                .contains("sample_pipeline_failures_total 0.0");
    }

    @Test
    @Order(4)
    void badInputAnswers400WithTheFieldAndTheFix() throws Exception {
        HttpResponse<String> r = Http.postJson(port, "/api/frames", "{\"count\": \"many\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        DocumentContext p = JsonPath.parse(r.body());
        assertThat(p.read("$.field", String.class)).isEqualTo("count");
        assertThat(p.read("$.detail", String.class)).contains("count must be a whole number").contains("Fix:");
    }

    @Test
    @Order(5)
    void stopsGracefullyOnSigterm() throws Exception {
        int status = sample.stop(Duration.ofSeconds(60));
        assertThat(status).as(SampleProcess.tail(sample.log())).isIn(0, 143); // 143: ended by SIGTERM, hooks run
        // every frame and every result taken before the channels closed; then the runtime freed everything
        assertThat(sample.log()).contains("seqlink stopped: 3 channel(s) drained, every one of " + 2 * FRAMES
                + " published frame(s) delivered").contains("seqlink runtime closed");
    }
}

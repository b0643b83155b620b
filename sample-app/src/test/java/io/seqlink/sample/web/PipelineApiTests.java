package io.seqlink.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.PublishChannel;
import io.seqlink.sample.pipeline.Pipeline;
import io.seqlink.sample.pipeline.PipelineStatistics;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The HTTP API in process: injection through both channels, statistics, bad input, backpressure, health. */
@EmulatedSampleTest
class PipelineApiTests {

    @LocalServerPort
    int port;

    @Autowired
    Pipeline pipeline;

    @Autowired
    SeqlinkRuntime runtime;

    @Test
    void injectedFramesCrossBothChannelsAndComeBackVerified() throws Exception {
        PipelineStatistics s = pipeline.statistics();
        long produced = s.produced();
        long verified = s.verifiedFully();
        long results = publishedOn("results-1") + publishedOn("results-2");

        HttpResponse<String> r = Http.postJson(port, "/api/frames", "{\"count\": 300, \"seed\": 1000}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        DocumentContext answer = JsonPath.parse(r.body());
        assertThat(answer.read("$.published", Integer.class)).isEqualTo(300);
        long first = answer.read("$.firstSequence", Long.class);
        assertThat(answer.read("$.lastSequence", Long.class)).isEqualTo(first + 299);
        assertThat(answer.read("$.firstSeed", Long.class)).isEqualTo(1000L);

        DocumentContext stats = Await.until(Duration.ofSeconds(30), () -> JsonPath.parse(Http.get(port, "/api/pipeline").body()),
                j -> j.read("$.collected", Long.class) >= produced + 300 && j.read("$.inFlight", Long.class) == 0,
                "every injected frame to be collected");
        assertThat(stats.read("$.backend", String.class)).isEqualTo("emulated");
        assertThat(stats.read("$.failures", Long.class)).isZero();
        assertThat(stats.read("$.verifiedFully", Long.class)).isEqualTo(verified + 300);
        assertThat(stats.read("$.inference[*].device", java.util.List.class)).containsExactly(1, 2);
        // sharded by sequence: each of the two inference devices took half of the frames
        assertThat(stats.read("$.inference[0].inferred", Long.class) + stats.read("$.inference[1].inferred", Long.class))
                .isEqualTo(s.produced());
        assertThat(stats.read("$.channels.frames.published", Long.class)).isGreaterThanOrEqualTo(first + 299);
        assertThat(publishedOn("results-1") + publishedOn("results-2")).isEqualTo(results + 300);
        assertThat(stats.read("$.endToEndLatency.count", Long.class)).isGreaterThanOrEqualTo(300);
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("application/json", "", "count", "has no body"),
                Arguments.of("application/json", "{}", "count", "count is required"),
                Arguments.of("application/json", "{\"count\": 0}", "count", "between 1 and 10000, got 0"),
                Arguments.of("application/json", "{\"count\": 10001}", "count", "between 1 and 10000, got 10001"),
                Arguments.of("application/json", "{\"count\": -5}", "count", "between 1 and 10000, got -5"),
                Arguments.of("application/json", "{\"count\": \"ten\"}", "count", "whole number, got the string \"ten\""),
                Arguments.of("application/json", "{\"count\": 2.5}", "count", "whole number, got 2.5"),
                Arguments.of("application/json", "{\"count\": true}", "count", "whole number, got true"),
                Arguments.of("application/json", "{\"count\": 99999999999999999999}", "count", "whole number"),
                Arguments.of("application/json", "{\"count\": 5, \"seed\": \"abc\"}", "seed", "seed must be a whole number"),
                Arguments.of("application/json", "{\"count\": 5, \"cnt\": 1}", "cnt", "unknown field 'cnt'"),
                Arguments.of("application/json", "{\"count\": 5", "body", "not a JSON object"),
                Arguments.of("application/json", "[1, 2]", "body", "not a JSON object"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badRequests")
    void badInjectionsAnswer400NamingTheFieldAndChangeNothing(String contentType, String body, String field, String message)
            throws Exception {
        long produced = pipeline.statistics().produced();
        HttpResponse<String> r = Http.post(port, "/api/frames", contentType, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        DocumentContext problem = JsonPath.parse(r.body());
        assertThat(problem.read("$.field", String.class)).isEqualTo(field);
        assertThat(problem.read("$.detail", String.class)).contains(message).contains("Fix:");
        assertThat(pipeline.statistics().produced()).isEqualTo(produced);
    }

    @Test
    void aBodyThatIsNotJsonAnswers415() throws Exception {
        HttpResponse<String> r = Http.post(port, "/api/frames", "text/plain", "count=5");
        assertThat(r.statusCode()).isEqualTo(415);
        assertThat(JsonPath.parse(r.body()).read("$.detail", String.class)).contains("text/plain");
    }

    @Test
    void aFullPipelineAnswers503WithWhatWasPublishedAndRecovers() throws Exception {
        PublishChannel frames = runtime.channel("frames").orElseThrow();
        long produced = pipeline.statistics().produced();
        long backpressured = frames.snapshot().backpressured();
        frames.consumer(1).pause(); // device 1 stops taking frames: the lossless ring fills up
        HttpResponse<String> r;
        try {
            r = Http.postJson(port, "/api/frames", "{\"count\": 200}");
        } finally {
            frames.consumer(1).resume();
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        DocumentContext problem = JsonPath.parse(r.body());
        int published = problem.read("$.published", Integer.class);
        assertThat(published).isBetween(1, 199);
        assertThat(problem.read("$.stop", String.class)).isEqualTo("back-pressured");
        assertThat(problem.read("$.type", String.class)).endsWith("troubleshooting.md#a-lagging-consumer");
        assertThat(problem.read("$.detail", String.class)).contains(published + " of 200 frames were published")
                .contains("no free slot").contains("/actuator/seqlink/frames");
        // one frame found the ring full and waited for the whole publish-timeout: its try and its wait count one each,
        // not every retry of a producer that spins on tryClaim()
        assertThat(frames.snapshot().backpressured() - backpressured).as("claims back-pressured").isBetween(1L, 2L);
        Await.until(Duration.ofSeconds(30), () -> pipeline.statistics().inFlight(), n -> n == 0,
                "the frames published before the 503 to be collected once device 1 resumed");
        assertThat(pipeline.statistics().produced()).isEqualTo(produced + published);
        assertThat(pipeline.statistics().failures()).isZero();
    }

    @Test
    void healthSaysWhichBackendRunsAndShowsTheSeqlinkComposite() throws Exception {
        HttpResponse<String> r = Http.get(port, "/actuator/health");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        DocumentContext h = JsonPath.parse(r.body());
        assertThat(h.read("$.status", String.class)).isEqualTo("UP");
        assertThat(h.read("$.components.pipeline.status", String.class)).isEqualTo("UP");
        assertThat(h.read("$.components.pipeline.details.backend", String.class)).isEqualTo("emulated");
        assertThat(h.read("$.components.pipeline.details.note", String.class)).contains("emulated backend");
        assertThat(h.read("$.components.seqlink.components.topology.details.backend", String.class)).isEqualTo("emulated");
        assertThat(h.read("$.components.seqlink.components.frames.status", String.class)).isEqualTo("UP");
        assertThat(h.read("$.components.seqlink.components['results-1'].status", String.class)).isEqualTo("UP");
    }

    @Test
    void prometheusShowsSeqlinkAndSampleMeters() throws Exception {
        Http.postJson(port, "/api/frames", "{\"count\": 10}");
        Await.until(Duration.ofSeconds(20), () -> pipeline.statistics().inFlight(), n -> n == 0, "the frames to be collected");
        String scrape = Http.get(port, "/actuator/prometheus").body();
        assertThat(scrape).containsPattern("seqlink_channel_published_total\\{[^}]*channel=\"frames\"[^}]*} [1-9]")
                .containsPattern("seqlink_channel_published_total\\{[^}]*channel=\"results-2\"[^}]*} [1-9]")
                .containsPattern("seqlink_consumer_lag\\{[^}]*channel=\"frames\"")
                .containsPattern("sample_pipeline_results_collected_total(\\{[^}]*})? [1-9]")
                .contains("sample_pipeline_inferred_total{");
    }

    @Test
    void theEndpointListsTheListenersOfBothStages() throws Exception {
        DocumentContext s = JsonPath.parse(Http.get(port, "/actuator/seqlink").body());
        assertThat(s.read("$.channels.frames.consumers[0].listener", String.class)).isEqualTo("inference");
        assertThat(s.read("$.channels['results-1'].consumers[0].listener", String.class)).isEqualTo("collector.results-1");
    }

    @Test
    void preparingAndPublishingFramesAllocatesNothingPerFrame() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Duration timeout = Duration.ofSeconds(30);
        for (int i = 0; i < 5; i++) { // warm up the producer path
            assertThat(pipeline.preprocessor().produce(200, 1, timeout).published()).isEqualTo(200);
        }
        int frames = 2000;
        long before = threads.getCurrentThreadAllocatedBytes();
        int published = 0;
        for (int i = 0; i < frames / 200; i++) {
            published += pipeline.preprocessor().produce(200, 1, timeout).published();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(published).isEqualTo(frames);
        // the emulated backend runs the kernels on this thread too: all of it from preallocated memory; what
        // remains is the one result record per call (and the waits' bookkeeping when the ring is full)
        assertThat(allocated / frames).as("bytes allocated per frame (%d in all)", allocated).isLessThan(16);
        Await.until(Duration.ofSeconds(30), () -> pipeline.statistics().inFlight(), n -> n == 0, "the frames to be collected");
        assertThat(pipeline.statistics().failures()).isZero();
    }

    long publishedOn(String channel) {
        return runtime.channel(channel).orElseThrow().snapshot().publishedOnDevice();
    }
}

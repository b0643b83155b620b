package io.seqlink.sample.web;

import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.seqlink.sample.SampleApplication;
import io.seqlink.sample.pipeline.Pipeline;
import io.seqlink.sample.pipeline.PipelineStatistics;
import io.seqlink.test.context.EmulatedSeqlink;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

/**
 * One trace from {@code POST /api/frames} to the collector, through the GPU hop: the sample with Spring Boot's own
 * tracing (its observation, Micrometer Tracing and Brave auto-configurations; W3C propagation), every span kept in
 * memory, and the frames channel sampling every frame. Per frame of the request, five spans in the request's trace,
 * each the child of the one before: the HTTP server span, {@code frames publish} (producer device 0),
 * {@code frames process} on the inference device whose share the frame is (its inference, from the launch to its
 * result's forwarding), {@code results-<d> publish} from that device, and {@code results-<d> process} at the collector
 * on device 0.
 */
@EmulatedSeqlink(verify = true)
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.pipeline.source-rate=0",
        "seqlink.observation.channels.frames.sampling-probability=1",
        "management.tracing.sampling.probability=1.0" })
@Import(PipelineTracingTests.Spans.class)
@DirtiesContext // its own context (tracing on): closed after this class, so its launcher does not run beside the others'
class PipelineTracingTests {

    private static final int FRAMES = 4;

    @LocalServerPort
    int port;

    @Autowired
    Pipeline pipeline;

    @Autowired
    Spans spans;

    @Test
    void aPostsFramesAreOneTraceFromTheRequestThroughTheInferenceDeviceToTheCollector() throws Exception {
        PipelineStatistics s = pipeline.statistics();
        long collected = s.collected();
        HttpResponse<String> r = Http.postJson(port, "/api/frames", "{\"count\": " + FRAMES + ", \"seed\": 7}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        DocumentContext answer = JsonPath.parse(r.body());
        long first = answer.read("$.firstSequence", Long.class);
        assertThat(answer.read("$.lastSequence", Long.class)).isEqualTo(first + FRAMES - 1);

        Await.until(Duration.ofSeconds(60), () -> s.collected() - collected, n -> n >= FRAMES, "the frames' results collected");
        List<MutableSpan> all = Await.until(Duration.ofSeconds(60), () -> List.copyOf(spans.spans),
                l -> count(l, "results-1 process") + count(l, "results-2 process") >= FRAMES
                        && l.stream().anyMatch(m -> m.kind() == brave.Span.Kind.SERVER),
                "the collector's spans and the request's");
        assertThat(s.failures()).isZero();

        MutableSpan request = all.stream().filter(m -> m.kind() == brave.Span.Kind.SERVER && m.name() != null
                && m.name().contains("/api/frames")).findFirst()
                .orElseThrow(() -> new AssertionError("no server span of POST /api/frames among " + all));
        assertThat(request.parentId()).as("the request starts the trace: %s", request).isNull();
        List<MutableSpan> collector = all.stream().filter(m -> m.name() != null && m.name().matches("results-\\d+ process"))
                .toList();
        assertThat(collector).hasSize(FRAMES);
        for (MutableSpan process : collector) {
            String device = process.name().substring("results-".length(), process.name().indexOf(' '));
            assertThat(process.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(process.tag("seqlink.consumer.device")).as("the collector's device").isEqualTo("0");
            MutableSpan resultsPublish = parent(all, process);
            assertThat(resultsPublish.name()).isEqualTo("results-" + device + " publish");
            assertThat(resultsPublish.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
            MutableSpan inference = parent(all, resultsPublish);
            assertThat(inference.name()).as("the result's publish continues its frame's inference").isEqualTo("frames process");
            assertThat(inference.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(inference.tag("seqlink.consumer.device")).as("the inference device publishes results-%s", device)
                    .isEqualTo(device);
            MutableSpan framesPublish = parent(all, inference);
            assertThat(framesPublish.name()).isEqualTo("frames publish");
            assertThat(framesPublish.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
            assertThat(framesPublish.parentId()).as("the frame's publish span's parent: the request's server span")
                    .isEqualTo(request.id());
            for (MutableSpan m : List.of(process, resultsPublish, inference, framesPublish)) {
                assertThat(m.traceId()).as("%s in the request's trace", m.name()).isEqualTo(request.traceId());
            }
        }
        assertThat(all).filteredOn(m -> "frames publish".equals(m.name()) && request.id().equals(m.parentId())).hasSize(FRAMES);
        // sharded by sequence: frame s is inferred on device 1 + (s - 1) % 2, so both inference devices took two
        assertThat(all).filteredOn(m -> "frames process".equals(m.name())).extracting(m -> m.tag("seqlink.consumer.device"))
                .containsExactlyInAnyOrder("1", "1", "2", "2");
    }

    private static long count(List<MutableSpan> spans, String name) {
        return spans.stream().filter(m -> name.equals(m.name())).count();
    }

    private static MutableSpan parent(List<MutableSpan> spans, MutableSpan child) {
        @Nullable String id = child.parentId();
        return spans.stream().filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no parent " + id + " of " + child.name() + " among " + spans));
    }

    /** Every span Brave finishes, kept in memory (Spring Boot's Brave configuration picks up the handler). */
    @TestConfiguration(proxyBeanMethods = false)
    static class Spans {
        final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

        @Bean
        SpanHandler collectingSpanHandler() {
            return new SpanHandler() {
                @Override
                public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                    spans.add(span);
                    return true;
                }
            };
        }
    }
}

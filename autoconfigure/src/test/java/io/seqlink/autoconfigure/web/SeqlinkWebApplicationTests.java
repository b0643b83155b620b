package io.seqlink.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.channel.PublishChannel;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A real web server on the emulated backend: health, the seqlink endpoint, Prometheus, and a listener. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "seqlink.backend=emulated",
        "seqlink.channels.frames.producer=0",
        "seqlink.channels.frames.consumers=1",
        "seqlink.channels.frames.slots=32",
        "seqlink.channels.frames.slot-size=1KB",
        "management.endpoints.web.exposure.include=health,seqlink,prometheus",
        "management.endpoint.health.show-details=always" })
class SeqlinkWebApplicationTests {

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Autowired
    SeqlinkRuntime runtime;

    @Autowired
    WebTestApplication.FrameCollector collector;

    @Test
    void listenerReceivesEveryPublishedFrameInOrder() {
        int before = collector.values.size();
        long first = frames.snapshot().publishedOnDevice() + 1;
        List<Long> sent = new ArrayList<>();
        for (long i = first; i < first + 2_000; i++) {
            TestChannels.publishLong(frames, i * 31);
            sent.add(i * 31);
        }
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(20))).isTrue();
        assertThat(collector.values.subList(before, collector.values.size())).containsExactlyElementsOf(sent);
    }

    @Test
    void healthShowsTheSeqlinkCompositeWithItsTopologyAndChannelChildren() throws Exception {
        HttpResponse<String> response = Http.get(port, "/actuator/health");
        assertThat(response.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(response.body());
        assertThat(json.read("$.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.seqlink.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.seqlink.components.topology.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.seqlink.components.topology.details.backend", String.class)).isEqualTo("emulated");
        assertThat(json.read("$.components.seqlink.components.topology.details.links['0->1']", String.class))
                .isEqualTo("PEER_ATOMIC");
        assertThat(json.read("$.components.seqlink.components.frames.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.seqlink.components.frames.details.consumers['1'].transport", String.class))
                .isEqualTo("PEER_ATOMIC");
        assertThat(json.read("$.components.seqlink.components.frames.details.consumers['1'].lag", Long.class)).isNotNull();
    }

    @Test
    void seqlinkEndpointShowsDevicesTheLinkMatrixWithProbeFiguresAndChannelPositions() throws Exception {
        TestChannels.publishLong(frames, 7);
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        HttpResponse<String> response = Http.get(port, "/actuator/seqlink");
        assertThat(response.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(response.body());
        assertThat(json.read("$.backend", String.class)).isEqualTo("emulated");
        assertThat(json.read("$.devices.length()", Integer.class)).isEqualTo(2);
        assertThat(json.read("$.topology.links.length()", Integer.class)).isEqualTo(2);
        List<Map<String, Object>> probed = json.read("$.topology.links[?(@.producer == 0 && @.consumer == 1)]");
        assertThat(probed).hasSize(1);
        assertThat(probed.get(0)).containsEntry("verdict", "peer-atomic");
        assertThat(json.<java.util.List<Object>>read("$.topology.links[?(@.producer == 0)].probe.atomicAddLatencyNs")).hasSize(1);
        assertThat(json.read("$.channels.frames.state", String.class)).isEqualTo("open");
        assertThat(json.read("$.channels.frames.consumers[0].device", Integer.class)).isEqualTo(1);
        assertThat(json.read("$.channels.frames.consumers[0].transport", String.class)).isEqualTo("peer-atomic");
        assertThat(json.read("$.channels.frames.consumers[0].acknowledged", Long.class))
                .isEqualTo(json.read("$.channels.frames.publishedOnDevice", Long.class)).isPositive();
        assertThat(json.read("$.channels.frames.consumers[0].listener", String.class)).isEqualTo("frameCollector.onFrame");
    }

    @Test
    void seqlinkEndpointShowsOneChannelAndAnswers404ForAnUnknownOne() throws Exception {
        HttpResponse<String> one = Http.get(port, "/actuator/seqlink/frames");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(JsonPath.parse(one.body()).read("$.name", String.class)).isEqualTo("frames");
        assertThat(Http.get(port, "/actuator/seqlink/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void writeOperationsAreNotAccessibleByDefault() throws Exception {
        assertThat(Http.post(port, "/actuator/seqlink", null).statusCode()).isBetween(400, 499);
        assertThat(Http.post(port, "/actuator/seqlink/frames", "{\"action\":\"pause\"}").statusCode()).isBetween(400, 499);
        assertThat(frames.consumer(1).state().name()).isEqualTo("ACTIVE");
    }

    @Test
    void prometheusShowsSeqlinkMetersWithChannelConsumerAndDeviceTags() throws Exception {
        TestChannels.publishLong(frames, 1);
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        HttpResponse<String> response = Http.get(port, "/actuator/prometheus");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("seqlink_channel_published_total{channel=\"frames\",device=\"0\"")
                .contains("seqlink_consumer_consumed_total{channel=\"frames\",consumer=\"1\",device=\"1\"")
                .contains("seqlink_consumer_lag{channel=\"frames\",consumer=\"1\",device=\"1\"")
                .contains("seqlink_consumer_latency_seconds_count{channel=\"frames\",consumer=\"1\",device=\"1\"")
                .contains("seqlink_channel_backpressure_waits_total")
                .contains("seqlink_consumer_laps_total")
                .contains("seqlink_consumer_missed_total")
                .contains("seqlink_consumer_empty_polls_total{channel=\"frames\",consumer=\"1\",device=\"1\",side=\"host\"")
                .contains("seqlink_consumer_dead_lettered_total")
                .contains("seqlink_link_atomic_latency_seconds{consumer=\"1\",producer=\"0\",verdict=\"peer-atomic\"")
                .doesNotContain("seqlink_consumer_latency_seconds_bucket");
    }
}

package io.seqlink.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An operator granted write access, on a machine whose only link lacks peer atomics and a policy
 * that warns: health DEGRADED (HTTP 200), re-verification and pause/resume over HTTP.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "seqlink.backend=emulated",
        "seqlink.emulated.links.0-1=pcie-peer",
        "seqlink.topology.required-link-class=peer-atomic",
        "seqlink.topology.on-unsupported=warn",
        "seqlink.channels.frames.consumers=1",
        "seqlink.channels.frames.slots=8",
        "seqlink.channels.frames.slot-size=64B",
        "management.endpoints.web.exposure.include=health,seqlink",
        "management.endpoint.health.show-details=always",
        "management.endpoint.seqlink.access=unrestricted" })
class SeqlinkOperatorAccessTests {

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Test
    void degradedLinkUnderPolicyWarnReportsDegradedWithHttp200() throws Exception {
        HttpResponse<String> response = Http.get(port, "/actuator/health");
        assertThat(response.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(response.body());
        assertThat(json.read("$.status", String.class)).isEqualTo("DEGRADED");
        assertThat(json.read("$.components.seqlink.status", String.class)).isEqualTo("DEGRADED");
        assertThat(json.read("$.components.seqlink.components.topology.status", String.class)).isEqualTo("DEGRADED");
        assertThat(json.<java.util.List<Object>>read("$.components.seqlink.components.topology.details.degradedLinks"))
                .containsExactly("0->1");
        assertThat(json.read("$.components.seqlink.components.frames.details.consumers['1'].transport", String.class))
                .isEqualTo("PEER_COPY");
    }

    @Test
    void reverifyRunsTheVerifierAgainAndReturnsTheTopology() throws Exception {
        HttpResponse<String> response = Http.post(port, "/actuator/seqlink", null);
        assertThat(response.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(response.body());
        assertThat(json.<java.util.List<Object>>read("$.links[?(@.producer == 0 && @.consumer == 1)].verdict"))
                .containsExactly("peer-copy");
        assertThat(json.read("$.requiredLinkClass", String.class)).isEqualTo("peer-atomic");
    }

    @Test
    void pauseAndResumeAConsumerOverHttp() throws Exception {
        HttpResponse<String> paused = Http.post(port, "/actuator/seqlink/frames", "{\"action\":\"pause\",\"device\":1}");
        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(JsonPath.parse(paused.body()).read("$.consumers[0].state", String.class)).isEqualTo("paused");
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.PAUSED);
        HttpResponse<String> resumed = Http.post(port, "/actuator/seqlink/frames", "{\"action\":\"RESUME\"}");
        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
    }

    @Test
    void badWriteRequestsAreRejectedWith400AndChangeNothing() throws Exception {
        assertThat(Http.post(port, "/actuator/seqlink/nope", "{\"action\":\"pause\"}").statusCode()).isEqualTo(400);
        assertThat(Http.post(port, "/actuator/seqlink/frames", "{\"action\":\"pause\",\"device\":5}").statusCode())
                .isEqualTo(400);
        assertThat(Http.post(port, "/actuator/seqlink/frames", "{\"action\":\"explode\"}").statusCode()).isEqualTo(400);
        assertThat(Http.post(port, "/actuator/seqlink/frames", "{}").statusCode()).isEqualTo(400);
        assertThat(Http.post(port, "/actuator/seqlink/frames", "not json").statusCode()).isBetween(400, 499);
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
    }
}

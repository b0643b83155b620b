package io.seqlink.autoconfigure.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.web.WebTestApplication;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Endpoint bad requests with the write operations granted
 * ({@code management.endpoint.seqlink.access=unrestricted}): malformed bodies, wrong types, unknown
 * actions and devices on {@code POST /actuator/seqlink/{channel}} each answer 4xx, leak no stack trace
 * or secret, and change nothing: every consumer stays active and the channel still delivers.
 * (Unknown channel, unknown device 5, unknown action, {@code {}} and a non-JSON body are in
 * {@code SeqlinkOperatorAccessTests.badWriteRequestsAreRejectedWith400AndChangeNothing}.)
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "seqlink.backend=emulated",
        "seqlink.verify.enabled=false",
        "seqlink.emulated.device-count=3",
        "seqlink.channels.frames.producer=0",
        "seqlink.channels.frames.consumers=1,2",
        "seqlink.channels.frames.slots=16",
        "seqlink.channels.frames.slot-size=256B",
        "management.endpoints.web.exposure.include=health,seqlink",
        "management.endpoint.health.show-details=always",
        "management.endpoint.seqlink.access=unrestricted",
        "spring.datasource.password=" + EndpointDefaultAccessReliabilityTests.SECRET_PASSWORD,
        "app.api-token=" + EndpointDefaultAccessReliabilityTests.SECRET_TOKEN })
class EndpointBadRequestReliabilityTests {

    static final String JSON = "application/json";

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Autowired
    SeqlinkRuntime runtime;

    @Autowired
    WebTestApplication.FrameCollector collector;

    /** Each case starts from the same state: consumer 1 active, consumer 2 paused (so a wrongful resume shows too). */
    @BeforeEach
    void sameStartingState() {
        frames.consumer(1).resume();
        frames.consumer(2).pause();
    }

    static Stream<Arguments> badRequests() {
        String a = "a".repeat(300);
        return Stream.of(
                Arguments.of("device as a string", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\",\"device\":\"one\"}", 400),
                Arguments.of("negative device", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\",\"device\":-1}", 400),
                Arguments.of("device not a whole number", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\",\"device\":1.5}", 400),
                Arguments.of("device beyond int", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\",\"device\":99999999999}", 400),
                Arguments.of("device that is the producer, not a consumer", "/actuator/seqlink/frames", JSON,
                        "{\"action\":\"pause\",\"device\":0}", 400),
                Arguments.of("action as a number", "/actuator/seqlink/frames", JSON, "{\"action\":1}", 400),
                Arguments.of("action null", "/actuator/seqlink/frames", JSON, "{\"action\":null,\"device\":1}", 400),
                Arguments.of("action as an object", "/actuator/seqlink/frames", JSON, "{\"action\":{\"pause\":true}}", 400),
                Arguments.of("action with a trailing space", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause \"}", 400),
                Arguments.of("action spelled with dashes", "/actuator/seqlink/frames", JSON, "{\"action\":\"p-a-u-s-e\"}", 400),
                Arguments.of("empty action", "/actuator/seqlink/frames", JSON, "{\"action\":\"\"}", 400),
                Arguments.of("blank action", "/actuator/seqlink/frames", JSON, "{\"action\":\"   \",\"device\":2}", 400),
                Arguments.of("body a JSON array", "/actuator/seqlink/frames", JSON, "[\"pause\"]", 400),
                Arguments.of("truncated JSON", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\"", 400),
                Arguments.of("empty body", "/actuator/seqlink/frames", JSON, "", 400),
                Arguments.of("no body, no content type", "/actuator/seqlink/frames", null, null, 415),
                Arguments.of("plain text body", "/actuator/seqlink/frames", "text/plain", "action=pause", 415),
                Arguments.of("form body", "/actuator/seqlink/frames", "application/x-www-form-urlencoded", "action=pause&device=1", 415),
                Arguments.of("unknown channel with a valid body", "/actuator/seqlink/nope", JSON, "{\"action\":\"pause\"}", 400),
                Arguments.of("channel name of 300 letters", "/actuator/seqlink/" + a, JSON, "{\"action\":\"pause\"}", 400),
                Arguments.of("channel name with an encoded slash", "/actuator/seqlink/fr%2Fames", JSON, "{\"action\":\"pause\"}", 400),
                Arguments.of("channel name 'topology'", "/actuator/seqlink/topology", JSON, "{\"action\":\"pause\"}", 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badWriteRequestsAnswer4xxLeakNothingAndChangeNothing(String name, String path, String type, String body, int status)
            throws Exception {
        long published = frames.snapshot().published();
        HttpResponse<String> r = WebHttp.send(port, "POST", path, type, body);
        System.out.printf("unrestricted: %s: POST %s %s -> %d %s%n", name, path.length() > 60 ? path.substring(0, 60) + "..." : path,
                body, r.statusCode(), r.body().length() > 200 ? r.body().substring(0, 200) : r.body());
        assertThat(r.statusCode()).as("%s: %s", name, r.body()).isEqualTo(status);
        assertThat(r.body()).as("no stack trace or server version in the answer").doesNotContain("\tat ")
                .doesNotContain("at io.seqlink").doesNotContain("at org.springframework").doesNotContain("Exception")
                .doesNotContain("Apache Tomcat/");
        EndpointDefaultAccessReliabilityTests.assertNoSecrets(r.body());
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
        assertThat(frames.consumer(2).state()).isEqualTo(ConsumerState.PAUSED);
        assertThat(frames.snapshot().published()).isEqualTo(published);
        // still delivering, to both consumers once device 2 resumes
        frames.consumer(2).resume();
        int before = collector.values.size();
        TestChannels.publishLong(frames, 424242);
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        assertThat(collector.values.subList(before, collector.values.size())).containsExactly(424242L, 424242L);
    }

    @Test
    void aValidPauseAndResumeStillWorkAfterTheBadRequests() throws Exception {
        frames.consumer(2).resume();
        HttpResponse<String> paused = WebHttp.send(port, "POST", "/actuator/seqlink/frames", JSON, "{\"action\":\"pause\",\"device\":2}");
        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(frames.consumer(2).state()).isEqualTo(ConsumerState.PAUSED);
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
        EndpointDefaultAccessReliabilityTests.assertNoSecrets(paused.body());
        // fields the operation does not take are ignored: actuator binds its named parameters only
        HttpResponse<String> extra = WebHttp.send(port, "POST", "/actuator/seqlink/frames", JSON,
                "{\"action\":\"Pause\",\"device\":1,\"force\":true}");
        assertThat(extra.statusCode()).isEqualTo(200);
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.PAUSED);
        HttpResponse<String> resumed = WebHttp.send(port, "POST", "/actuator/seqlink/frames", JSON, "{\"action\":\"RESUME\"}");
        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(JsonPath.parse(resumed.body()).read("$.consumers[*].state", java.util.List.class)).containsOnly("active");
    }
}

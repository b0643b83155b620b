package io.seqlink.autoconfigure.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.web.WebTestApplication;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.endpoint.SeqlinkEndpoint;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
 * Security and bad requests with the endpoint as the starter ships it (read-only access):
 * every write request is refused and changes nothing (no pause, no re-verification), read requests for
 * what does not exist answer 404, and nothing the endpoint or health shows is a secret: only the
 * documented fields, no configuration values, no credentials, no environment.
 * (The write operations with access granted: {@link EndpointBadRequestReliabilityTests} and
 * {@code SeqlinkOperatorAccessTests}.)
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "seqlink.backend=emulated",
        "seqlink.verify.enabled=false",
        "seqlink.channels.frames.producer=0",
        "seqlink.channels.frames.consumers=1",
        "seqlink.channels.frames.slots=16",
        "seqlink.channels.frames.slot-size=256B",
        "management.endpoints.web.exposure.include=health,seqlink",
        "management.endpoint.health.show-details=always",
        // secrets an application typically holds: none may appear in any answer
        "spring.datasource.password=" + EndpointDefaultAccessReliabilityTests.SECRET_PASSWORD,
        "app.api-token=" + EndpointDefaultAccessReliabilityTests.SECRET_TOKEN })
class EndpointDefaultAccessReliabilityTests {

    static final String SECRET_PASSWORD = "hunter2-p4ssw0rd-7f3a";
    static final String SECRET_TOKEN = "tok-9c1e5d-secret";
    /** Key names that must never appear in an answer. */
    static final Pattern SECRET_KEYS = Pattern.compile("(?i).*(password|passwd|secret|token|credential|api-?key|private|"
            + "environment|systemProperties|propertySources).*");

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("frames")
    PublishChannel frames;

    @Autowired
    SeqlinkRuntime runtime;

    static Stream<Arguments> writeRequests() {
        return Stream.of(
                Arguments.of("POST", "/actuator/seqlink", null, null),
                Arguments.of("POST", "/actuator/seqlink/frames", "application/json", "{\"action\":\"pause\",\"device\":1}"),
                Arguments.of("POST", "/actuator/seqlink/frames", "application/json", "{\"action\":\"pause\"}"),
                Arguments.of("POST", "/actuator/seqlink/nope", "application/json", "{\"action\":\"pause\"}"),
                Arguments.of("PUT", "/actuator/seqlink/frames", "application/json", "{\"action\":\"pause\"}"),
                Arguments.of("DELETE", "/actuator/seqlink/frames", null, null),
                Arguments.of("PATCH", "/actuator/seqlink", "application/json", "{}"));
    }

    @ParameterizedTest(name = "{0} {1} {3}")
    @MethodSource("writeRequests")
    void writeRequestsAreRefusedByDefaultAndChangeNothing(String method, String path, String type, String body) throws Exception {
        String verifiedAt = JsonPath.parse(WebHttp.get(port, "/actuator/seqlink").body()).read("$.topology.verifiedAt");
        HttpResponse<String> r = WebHttp.send(port, method, path, type, body);
        System.out.printf("default access: %s %s %s -> %d%n", method, path, body, r.statusCode());
        assertThat(r.statusCode()).as("%s %s: %s", method, path, r.body()).isEqualTo(405);
        assertThat(frames.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
        assertThat(JsonPath.parse(WebHttp.get(port, "/actuator/seqlink").body()).read("$.topology.verifiedAt", String.class))
                .as("the links were not verified again").isEqualTo(verifiedAt);
        assertNoSecrets(r.body());
    }

    static Stream<Arguments> unknownReads() {
        return Stream.of(
                Arguments.of("/actuator/seqlink/nope", 404),
                Arguments.of("/actuator/seqlink/FRAMES", 404),
                Arguments.of("/actuator/seqlink/topology", 404),
                Arguments.of("/actuator/seqlink/frames/1", 404),
                Arguments.of("/actuator/seqlink/%2e%2e", 404),
                Arguments.of("/actuator/seqlink/fr%20ames", 404),
                Arguments.of("/actuator/health/seqlink/nope", 404));
    }

    @ParameterizedTest(name = "GET {0}")
    @MethodSource("unknownReads")
    void readsOfWhatDoesNotExistAnswer404(String path, int status) throws Exception {
        HttpResponse<String> r = WebHttp.get(port, path);
        System.out.printf("default access: GET %s -> %d%n", path, r.statusCode());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(status);
        assertNoSecrets(r.body());
    }

    @Test
    void theEndpointShowsOnlyDocumentedFieldsAndNoSecret() throws Exception {
        TestChannels.publishLong(frames, 1);
        assertThat(runtime.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        Set<String> documented = new TreeSet<>();
        for (Class<?> c : SeqlinkEndpoint.class.getDeclaredClasses()) {
            if (c.isRecord()) {
                Arrays.stream(c.getRecordComponents()).forEach(rc -> documented.add(rc.getName()));
            }
        }
        for (String path : List.of("/actuator/seqlink", "/actuator/seqlink/frames")) {
            HttpResponse<String> r = WebHttp.get(port, path);
            assertThat(r.statusCode()).isEqualTo(200);
            assertNoSecrets(r.body());
            Set<String> keys = keys(r.body(), Set.of("channels"));
            assertThat(keys).as("fields of %s", path).isSubsetOf(documented);
        }
    }

    @Test
    void healthShowsOnlyTheDocumentedDetailsAndNoSecret() throws Exception {
        HttpResponse<String> r = WebHttp.get(port, "/actuator/health/seqlink");
        assertThat(r.statusCode()).isEqualTo(200);
        assertNoSecrets(r.body());
        Set<String> documented = Set.of("status", "components", "details", "groups", // Boot's own
                // topology child (TopologyHealthIndicator)
                "backend", "backendReason", "devices", "requiredLinkClass", "onUnsupported", "links", "worstLink", "verifiedAt",
                "degradedLinks",
                // channel child (ChannelHealthIndicator)
                "state", "producer", "delivery", "readMode", "slots", "published", "backpressured", "backpressureWaitMillis",
                "consumers", "failure", "stalledConsumers", "laggingConsumers", "lagThreshold", "deadConsumers", "pausedConsumers",
                "retryingConsumers",
                // per consumer
                "transport", "acknowledged", "lag", "stalled", "retrying");
        assertThat(keys(r.body(), Set.of("components", "links", "consumers"))).isSubsetOf(documented);
    }

    /** No answer holds a secret value or a key that names one, nor this JVM's paths. */
    static void assertNoSecrets(String body) throws Exception {
        assertThat(body).doesNotContain(SECRET_PASSWORD).doesNotContain(SECRET_TOKEN)
                .doesNotContain(System.getProperty("java.home")).doesNotContain(System.getProperty("user.dir"));
        if (body.isBlank() || !(body.startsWith("{") || body.startsWith("["))) {
            return;
        }
        for (String key : keys(body, Set.of())) {
            assertThat(key).as("a key of %s", body).doesNotMatch(SECRET_KEYS);
        }
    }

    /** Every object key in the JSON; below a key of {@code maps} the keys are names (channels, devices, links), not fields. */
    static Set<String> keys(String json, Set<String> maps) {
        Set<String> out = new TreeSet<>();
        collect(JsonPath.parse(json).json(), maps, false, out);
        return out;
    }

    private static void collect(Object node, Set<String> maps, boolean namesHere, Set<String> out) {
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : new ArrayList<>(map.entrySet())) {
                String key = String.valueOf(e.getKey());
                if (!namesHere) {
                    out.add(key);
                }
                collect(e.getValue(), maps, !namesHere && maps.contains(key), out);
            }
        } else if (node instanceof List<?> list) {
            list.forEach(n -> collect(n, maps, false, out));
        }
    }
}

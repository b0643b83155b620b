package io.seqlink.sample.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.seqlink.sample.web.Await;
import io.seqlink.sample.web.Http;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sample stopped while frames pour in (the background source at full tilt and a
 * burst over HTTP in flight) loses no result: the collector's count equals the frames produced, every
 * channel drains with nothing left, and the stop says so. Three separate processes, three stops.
 */
class StopUnderLoadIT {

    private static final Pattern PIPELINE_STOPPED = Pattern.compile(
            "sample pipeline stopped: (\\d+) frames produced, (\\d+) results collected, (\\d+) lost, (\\d+) failed checks");
    private static final Pattern SEQLINK_STOPPED = Pattern.compile(
            "seqlink stopped: 3 channel\\(s\\) drained, every one of (\\d+) published frame\\(s\\) delivered");

    @ParameterizedTest(name = "stop {0}")
    @ValueSource(ints = {1, 2, 3})
    void stoppingUnderLoadLosesNoResult(int run) throws Exception {
        List<String> args = new ArrayList<>(SampleProcess.emulatedArgs());
        args.add("--sample.pipeline.source-rate=20000"); // more than the emulated pipeline takes: always loaded
        try (SampleProcess sample = SampleProcess.start("stop-under-load-" + run, args.toArray(String[]::new))) {
            int port = sample.port();
            Await.until(Duration.ofSeconds(60), () -> JsonPath.parse(Http.get(port, "/api/pipeline").body()),
                    j -> j.read("$.collected", Long.class) >= 500 * run, "results flowing");
            Thread burst = new Thread(() -> {
                try {
                    Http.postJson(port, "/api/frames", "{\"count\": 5000, \"seed\": 1}");
                } catch (Exception stopping) {
                    // the service went away mid-request: what it published still counts
                }
            });
            burst.start();
            int status = sample.stop(Duration.ofSeconds(60));
            burst.join(30_000);
            String log = sample.log();
            assertThat(status).as(SampleProcess.tail(log)).isIn(0, 143);

            Matcher pipeline = PIPELINE_STOPPED.matcher(log);
            assertThat(pipeline.find()).as("the pipeline's stop line in:\n%s", SampleProcess.tail(log)).isTrue();
            long produced = Long.parseLong(pipeline.group(1));
            assertThat(produced).as("frames produced before the stop").isPositive();
            assertThat(Long.parseLong(pipeline.group(2))).as("results collected").isEqualTo(produced);
            assertThat(Long.parseLong(pipeline.group(3))).as("lost").isZero();
            assertThat(Long.parseLong(pipeline.group(4))).as("failed checks").isZero();

            Matcher seqlink = SEQLINK_STOPPED.matcher(log);
            assertThat(seqlink.find()).as("seqlink's drain left nothing behind:\n%s", SampleProcess.tail(log)).isTrue();
            assertThat(Long.parseLong(seqlink.group(1))).as("frames and results published").isEqualTo(2 * produced);
            assertThat(log).doesNotContain("no longer forwarded").contains("seqlink runtime closed");
        }
    }
}

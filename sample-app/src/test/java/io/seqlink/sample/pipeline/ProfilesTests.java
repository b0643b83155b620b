package io.seqlink.sample.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.PublishChannel;
import io.seqlink.sample.SampleApplication;
import io.seqlink.sample.web.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The GPU profiles' topologies run the whole pipeline (here on the emulated backend with the same device
 * count): one inference device (gpu2), seven (gpu8), and everything on one device (gpu1, where the
 * inference listener and the collector share a launcher thread). Bursts larger than a publish batch go
 * through, every frame comes back verified, and each device infers its share.
 */
class ProfilesTests {

    static final int FRAMES = 1500;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"gpu1, 1, 0", "gpu2, 2, 1", "gpu8, 8, 1;2;3;4;5;6;7"})
    void everyFrameComesBackVerified(String profile, int devices, String inferenceDevices) throws Exception {
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SampleApplication.class)
                .web(WebApplicationType.NONE)
                .run("--spring.profiles.active=" + profile, "--seqlink.backend=emulated", "--sample.pipeline.source-rate=0")) {
            SeqlinkRuntime runtime = ctx.getBean(SeqlinkRuntime.class);
            Pipeline pipeline = ctx.getBean(Pipeline.class);
            assertThat(runtime.devices()).hasSize(devices);
            List<Integer> inference = List.of(inferenceDevices.split(";")).stream().map(Integer::valueOf).toList();
            assertThat(pipeline.frames().consumerDevices()).isEqualTo(inference);
            assertThat(pipeline.resultsChannels()).hasSize(inference.size());

            FramePreprocessor.Injection r = pipeline.preprocessor().produce(FRAMES, 1, Duration.ofSeconds(60));
            assertThat(r.published()).as(r.toString()).isEqualTo(FRAMES);
            PipelineStatistics s = pipeline.statistics();
            Await.until(Duration.ofSeconds(60), s::collected, n -> n >= FRAMES, "every result at the collector");
            assertThat(s.failures()).as(s.lastFailure()).isZero();
            assertThat(s.lost()).isZero();
            assertThat(s.forwardingErrors()).as("exceptions in the results forwarder").isZero();
            assertThat(s.verifiedFully()).isEqualTo(FRAMES);
            for (PipelineStatistics.DeviceStatistics d : s.devices()) {
                assertThat(d.inferred()).as("device " + d.device()).isBetween((long) FRAMES / inference.size(),
                        (long) FRAMES / inference.size() + 1);
            }
            for (String name : pipeline.resultsChannels()) {
                PublishChannel results = runtime.channel(name).orElseThrow();
                assertThat(results.snapshot().maxLag()).isZero();
                // the collector reads its results where the inference device's publish step pushed them
                assertThat(results.spec().hostListeners()).isEqualTo(results.consumerDevices());
                for (int c : results.consumerDevices()) {
                    assertThat(results.consumer(c).snapshot().deviceReads()).as("consume steps for the collector of " + name).isZero();
                }
            }
        }
    }
}

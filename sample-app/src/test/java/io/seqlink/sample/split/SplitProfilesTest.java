package io.seqlink.sample.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelState;
import io.seqlink.sample.SampleApplication;
import io.seqlink.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The split pipeline end to end on the emulated backend: the {@code split-producer} profile's service in a JVM of its
 * own shares channel 'frames', the {@code split-consumer} profile's service in this JVM attaches to it, and every frame
 * it takes arrives in sequence, intact, with the reference's result.
 */
class SplitProfilesTest {

    static final long FRAMES = 2_000;
    static final Duration LONG = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    @Test
    void framesPreparedInTheProducerServiceAreInferredAndVerifiedInTheConsumerService() throws Exception {
        Path dir = tmp.resolve("share");
        Path key = tmp.resolve("frames.key");
        Files.writeString(key, "a secret the two services of the split pipeline share");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        try (ChildJvm producer = ChildJvm.start("split-producer", Path.of("target", "child-jvms"), Map.of(), List.of(),
                SampleApplication.class, "--spring.profiles.active=split-producer", "--server.port=0",
                "--seqlink.channels.frames.share.directory=" + dir, "--seqlink.channels.frames.share.secret-file=" + key,
                "--sample.split.rate=0")) {
            producer.awaitLineContaining("seqlink channel 'frames' shared", LONG);
            SplitInference inference;
            AttachedChannel in;
            try (ConfigurableApplicationContext consumer = new SpringApplicationBuilder(SampleApplication.class)
                    .web(WebApplicationType.NONE)
                    .run("--spring.profiles.active=split-consumer", "--seqlink.attach.frames.directory=" + dir,
                            "--seqlink.attach.frames.secret-file=" + key)) {
                in = consumer.getBean(SeqlinkRuntime.class).attachedChannels().get(0);
                inference = consumer.getBean(SplitInference.class);
                SplitInference i = inference;
                await(() -> i.verified() >= FRAMES || i.failures() > 0,
                        () -> "verified " + i.verified() + ", " + i.failures() + " failures");
                assertThat(in.state()).isEqualTo(ChannelState.OPEN);
            } // the consumer service stops: no listener call after its close
            assertThat(inference.failures()).as(String.valueOf(inference.lastFailure())).isZero();
            assertThat(inference.verified()).isEqualTo(inference.inferred()).isGreaterThanOrEqualTo(FRAMES);
            assertThat(inference.lastSequence()).as("every frame after the attach, once, in order")
                    .isEqualTo(in.startsAfter() + inference.inferred());
            producer.signal("TERM"); // an orderly stop: the producer's drain, then its share closes
            assertThat(producer.awaitExit(LONG)).as(producer.tail()).isNotEqualTo(-1);
            producer.awaitLineContaining("split pipeline: the producer stopped", Duration.ofSeconds(5));
        }
    }

    static void await(BooleanSupplier condition, java.util.function.Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + LONG + ": " + what.get());
            }
            Thread.sleep(10);
        }
    }
}

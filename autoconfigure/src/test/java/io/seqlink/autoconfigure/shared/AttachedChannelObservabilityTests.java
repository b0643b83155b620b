package io.seqlink.autoconfigure.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.spring.endpoint.SeqlinkEndpoint;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import io.seqlink.spring.health.SeqlinkHealthStatus;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import io.seqlink.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health, metrics and the endpoint on both sides of a shared channel: the producer's show the attached processes (count,
 * pid, lag per seat), the consumer's show the attached channel, DOWN with the reason once its producer process was
 * killed ({@code kill -9} of a child JVM).
 */
class AttachedChannelObservabilityTests {

    static final String TEXT = "a secret the producer and the consumer share";

    @TempDir
    Path tmp;

    static SeqlinkRuntime runtime() {
        return SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
    }

    Path keyFile() throws Exception {
        Path f = tmp.resolve("frames.key");
        Files.writeString(f, TEXT);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void theProducersHealthMetricsAndEndpointShowItsAttachedProcessAndItsLag() throws Exception {
        Path dir = tmp.resolve("share");
        SharedSecret secret = SharedSecret.of(TEXT, "test");
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(ChannelSpec.builder("frames").producer(0).slots(16).slotBytes(64)
                    .stallTimeout(Duration.ofSeconds(30)).share(ChannelShare.of(dir, secret).withSeats(2)).build());
            producer.start();
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(producer).bindTo(registry);
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, secret).onDevice(1));
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            in.consumer().subscribe(frame -> {
                if (frame.sequence() == 1) {
                    holding.countDown();
                    release.await(60, TimeUnit.SECONDS); // holds the first frame: the others wait, lagging
                }
            });
            consumer.start();
            for (int i = 1; i <= 14; i++) {
                TestChannels.publishLong(ch, i);
            }
            assertThat(holding.await(60, TimeUnit.SECONDS)).isTrue();
            SeqlinkHealthContributor health = new SeqlinkHealthContributor(producer, new SeqlinkHealthSettings(0.75, false));
            Health h = ((HealthIndicator) health.getContributor("frames")).health();
            assertThat(h.getStatus()).as("14 of 16 slots unacknowledged by the attached process: lagging")
                    .isEqualTo(SeqlinkHealthStatus.DEGRADED);
            assertThat(h.getDetails()).containsEntry("attachedProcesses", 1).containsEntry("laggingAttachedSeats", java.util.List.of(0));
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> seats = (Map<String, Map<String, Object>>) h.getDetails().get("attachedConsumers");
            assertThat(seats.get("0")).containsEntry("pid", ProcessHandle.current().pid()).containsEntry("lag", 14L)
                    .containsEntry("epoch", 1L);
            assertThat(registry.get("seqlink.channel.attached").tags("channel", "frames").gauge().value()).isEqualTo(1);
            assertThat(registry.get("seqlink.channel.attached.lag").tags("channel", "frames", "seat", "0").gauge().value())
                    .isEqualTo(14);
            assertThat(registry.get("seqlink.channel.attached.lag").tags("channel", "frames", "seat", "1").gauge().value())
                    .as("a free seat").isNaN();
            SeqlinkEndpoint.ChannelDescriptor d = new SeqlinkEndpoint(producer).seqlink().channels().get("frames");
            assertThat(d.attachedConsumers()).singleElement().satisfies(a -> {
                assertThat(a.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(a.lag()).isEqualTo(14);
            });
            assertThat(d.maxLag()).isEqualTo(14);
            SeqlinkEndpoint.AttachedChannelDescriptor c = new SeqlinkEndpoint(consumer).seqlink().attached().get("frames");
            assertThat(c.state()).isEqualTo("open");
            assertThat(c.device()).isEqualTo(1);
            assertThat(c.seat()).isZero();
            release.countDown();
            SharedChannelPropertiesTests.await(() -> in.consumer().acknowledged() == 14, "14 acknowledged");
            assertThat(((HealthIndicator) health.getContributor("frames")).health().getStatus()).isEqualTo(Status.UP);
            assertThat(registry.get("seqlink.channel.attached.lag").tags("channel", "frames", "seat", "0").gauge().value()).isZero();
            in.close();
        }
    }

    @Test
    void anAttachedChannelWhoseProducerProcessWasKilledIsDownWithTheReasonInHealthMetricsAndTheEndpoint() throws Exception {
        Path dir = tmp.resolve("share");
        Path key = keyFile();
        try (SeqlinkRuntime rt = runtime();
                ChildJvm p = ChildJvm.start("spring-attached-producer", Path.of("target", "child-jvms"), Map.of(),
                        ProducerProcess.class, dir.toString(), key.toString())) {
            p.awaitLine("READY", Duration.ofSeconds(60));
            AttachedChannel in = rt.attachChannel(AttachSpec.of("frames", dir, SharedSecret.fromFile(key, "test")).onDevice(1));
            in.consumer().subscribe(frame -> { });
            rt.start();
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            SeqlinkHealthContributor health = new SeqlinkHealthContributor(rt, SeqlinkHealthSettings.defaults());
            p.command("publish 100");
            SharedChannelPropertiesTests.await(() -> in.consumer().acknowledged() == 100, "100 acknowledged");
            Health up = ((HealthIndicator) health.getContributor("frames")).health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("attached", true).containsEntry("acknowledged", 100L);
            assertThat(health.stream().map(e -> e.name())).contains("topology", "frames");
            assertThat(registry.get("seqlink.attached.up").tags("channel", "frames", "device", "1").gauge().value()).isEqualTo(1);
            assertThat(registry.get("seqlink.attached.position").tags("channel", "frames").gauge().value()).isEqualTo(100);
            assertThat(registry.get("seqlink.attached.latency").tags("channel", "frames").functionTimer().count())
                    .as("frames timed from their publish in the producer's process").isEqualTo(100);

            p.kill(); // kill -9 of the producer process
            SharedChannelPropertiesTests.await(() -> in.state() == ChannelState.FAILED, "FAILED after the producer's kill");
            Health down = ((HealthIndicator) health.getContributor("frames")).health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) down.getDetails().get("failure")).contains("the connection to the producer ended");
            assertThat(registry.get("seqlink.attached.up").tags("channel", "frames").gauge().value()).isZero();
            assertThat(registry.get("seqlink.attached.failed").tags("channel", "frames").gauge().value()).isEqualTo(1);
            SeqlinkEndpoint.AttachedChannelDescriptor d = new SeqlinkEndpoint(rt).seqlink().attached().get("frames");
            assertThat(d.state()).isEqualTo("failed");
            assertThat(d.failure()).contains("the connection to the producer ended");
            in.close();
            assertThat(((HealthIndicator) health.getContributor("frames")).health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        }
    }
}

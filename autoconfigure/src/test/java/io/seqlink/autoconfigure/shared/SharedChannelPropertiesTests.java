package io.seqlink.autoconfigure.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.diagnostics.FailureAnalysisTester;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ListenerContext;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A channel shared by one Spring application ({@code seqlink.channels.<name>.share}) and attached by another
 * ({@code seqlink.attach.<name>}), both in this JVM (two contexts, two runtimes, nothing shared but the region file and
 * the socket): listeners, retries and dead letters on the attached side, the properties' checks, and the failure
 * analysis of a consumer service whose producer is absent or holds another secret.
 */
class SharedChannelPropertiesTests {

    static final String SECRET = "the secret both services read from their files";

    @TempDir
    Path tmp;
    Path dir;
    Path key;

    @BeforeEach
    void files() throws Exception {
        dir = tmp.resolve("share");
        key = secretFile("frames.key", SECRET);
    }

    Path secretFile(String name, String content) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                        SeqlinkListenerAutoConfiguration.class))
                .withPropertyValues("seqlink.backend=emulated", "seqlink.verify.enabled=false",
                        "seqlink.listener.retry.initial-backoff=1ms", "seqlink.listener.retry.max-backoff=4ms");
    }

    ApplicationContextRunner producer() {
        return runner().withPropertyValues("seqlink.channels.frames.producer=0", "seqlink.channels.frames.slots=16",
                "seqlink.channels.frames.slot-size=256B", "seqlink.channels.frames.share.enabled=true",
                "seqlink.channels.frames.share.directory=" + dir, "seqlink.channels.frames.share.secret-file=" + key);
    }

    ApplicationContextRunner consumer() {
        return runner().withPropertyValues("seqlink.attach.frames.directory=" + dir, "seqlink.attach.frames.secret-file=" + key,
                "seqlink.attach.frames.device=1");
    }

    @Test
    void aConsumerServiceGetsTheProducerServicesFramesThroughChannelListenerWithRetriesAndDeadLetters() {
        producer().run(p -> {
            assertThat(p).hasNotFailed();
            PublishChannel frames = p.getBean(PublishChannel.class);
            assertThat(frames.spec().share()).isNotNull();
            assertThat(frames.consumerDevices()).as("no consumer of its own: only other processes consume it").isEmpty();
            assertThat(Files.exists(dir.resolve("frames.sock"))).isTrue();
            consumer().withPropertyValues("seqlink.listener.retry.max-attempts=2").withBean(Recorder.class)
                    .withBean(FrameErrorHandler.class, DeadLetters::new).run(c -> {
                        assertThat(c).hasNotFailed();
                        AttachedChannel in = c.getBean(SeqlinkRuntime.class).attachedChannels().get(0);
                        assertThat(in.name()).isEqualTo("frames");
                        assertThat(in.consumer().device()).isEqualTo(1);
                        for (long v = 1; v <= 100; v++) {
                            TestChannels.publishLong(frames, v);
                        }
                        Recorder r = c.getBean(Recorder.class);
                        DeadLetters dead = (DeadLetters) c.getBean(FrameErrorHandler.class);
                        await(() -> in.consumer().acknowledged() == 100, "the attached consumer acknowledged 100");
                        assertThat(r.values).hasSize(99).doesNotContain(13L);
                        assertThat(r.contexts).allMatch(s -> s.equals("frames -1->1"));
                        assertThat(dead.sequences).containsExactly(13L);
                        assertThat(r.attemptsOf13).isEqualTo(2);
                        assertThat(frames.attachedConsumers()).singleElement()
                                .satisfies(a -> assertThat(a.acknowledged()).isEqualTo(100));
                    });
        });
    }

    @Test
    void aConsumerServiceFailsAtStartupWhenNoProducerSharesTheChannelNamingTheDirectoryProperty() {
        consumer().withBean(Recorder.class).run(c -> {
            assertThat(c).hasFailed();
            FailureAnalysis a = FailureAnalysisTester.analyze(c.getStartupFailure());
            assertThat(a).isNotNull();
            assertThat(a.getDescription()).contains("seqlink.attach.frames", "no producer shares it in " + dir);
            assertThat(a.getAction()).contains("seqlink.attach.frames.directory", "seqlink.channels.frames.share.enabled=true",
                    "Start the producer service");
        });
    }

    @Test
    void aConsumerServiceFailsAtStartupWhenTheProducerIsGoneAndItsSocketIsLeft() throws Exception {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        try (var server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            server.bind(java.net.UnixDomainSocketAddress.of(dir.resolve("frames.sock"))); // left when it closes
        }
        consumer().run(c -> {
            assertThat(c).hasFailed();
            FailureAnalysis a = FailureAnalysisTester.analyze(c.getStartupFailure());
            assertThat(a.getDescription()).contains("nobody listens on");
            assertThat(a.getAction()).contains("has exited", "Start the producer service again", "seqlink.attach.frames.directory");
        });
    }

    @Test
    void aConsumerServiceWithAnotherSecretFailsAtStartupNamingTheSecretFileProperty() throws Exception {
        Path other = secretFile("other.key", "another secret of sixteen bytes or more");
        producer().run(p -> {
            assertThat(p).hasNotFailed();
            consumer().withPropertyValues("seqlink.attach.frames.secret-file=" + other).run(c -> {
                assertThat(c).hasFailed();
                FailureAnalysis a = FailureAnalysisTester.analyze(c.getStartupFailure());
                assertThat(a.getAction()).contains("seqlink.attach.frames.secret-file",
                        "seqlink.channels.frames.share.secret-file");
                assertThat(p.getBean(PublishChannel.class).attachedConsumers()).as("no seat taken").isEmpty();
            });
        });
    }

    @Test
    void anAttachedChannelTurnsFailedWhenTheProducerServiceStops() {
        producer().run(p -> consumer().withBean(Recorder.class).run(c -> {
            AttachedChannel in = c.getBean(SeqlinkRuntime.class).attachedChannels().get(0);
            assertThat(in.state()).isEqualTo(ChannelState.OPEN);
            p.close(); // the producer service stops: its drain, then the share closes
            await(() -> in.state() == ChannelState.FAILED, "FAILED once the producer service stopped");
            assertThat(in.failure()).hasMessageContaining("the producer closed the channel");
        }));
    }

    @Test
    void anAttachedChannelIsAttachedAgainWhenTheProducerServiceRestartsAndItsListenerGetsTheNewServicesFrames() {
        producer().run(p1 -> consumer().withPropertyValues("seqlink.attach.frames.reattach-interval=50ms")
                .withBean(Recorder.class).run(c -> {
                    SeqlinkRuntime rt = c.getBean(SeqlinkRuntime.class);
                    Recorder r = c.getBean(Recorder.class);
                    AttachedChannel first = rt.attachedChannel("frames").orElseThrow();
                    SimpleMeterRegistry meters = new SimpleMeterRegistry();
                    new SeqlinkMetrics(rt).bindTo(meters); // bound once, at startup, as the starter binds them
                    PublishChannel before = p1.getBean(PublishChannel.class);
                    for (long v = 1; v <= 10; v++) {
                        TestChannels.publishLong(before, v);
                    }
                    await(() -> r.values.size() == 10, "the first producer's 10 frames");
                    p1.close(); // the producer service stops; a new one starts in its place
                    await(() -> first.state() == ChannelState.FAILED, "FAILED once the producer service stopped");
                    assertThat(meters.get("seqlink.attached.up").gauge().value()).isZero();
                    producer().run(p2 -> {
                        await(() -> rt.attachedChannel("frames").filter(a -> a != first && a.state() == ChannelState.OPEN)
                                .isPresent(), "attached again to the new producer service");
                        AttachedChannel again = rt.attachedChannel("frames").orElseThrow();
                        assertThat(again.consumer().subscribed()).as("the listener is bound to the new attachment").isTrue();
                        PublishChannel after = p2.getBean(PublishChannel.class);
                        for (long v = 101; v <= 110; v++) {
                            TestChannels.publishLong(after, v);
                        }
                        await(() -> r.values.size() == 20, "the new producer's 10 frames");
                        assertThat(r.values).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L,
                                101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L, 110L);
                        // closed by the recovery's thread after it bound the new attachment, which may deliver first
                        await(() -> first.state() == ChannelState.CLOSED, "the failed attachment closed once the new one is bound");
                        assertThat(after.attachedConsumers()).singleElement()
                                .satisfies(a -> assertThat(a.acknowledged()).isEqualTo(10));
                        assertThat(meters.get("seqlink.attached.up").gauge().value()).as("the meters follow the new attachment")
                                .isEqualTo(1);
                        assertThat(meters.get("seqlink.attached.consumed").functionCounter().count()).isEqualTo(10);
                    });
                }));
    }

    @Test
    void shareAndAttachPropertiesAreCheckedNamingThePropertyAndTheFix() throws Exception {
        Path open = tmp.resolve("open.key");
        Files.writeString(open, SECRET);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        Path shortKey = secretFile("short.key", "too short");
        runner().withPropertyValues("seqlink.channels.latest.consumers=1", "seqlink.channels.latest.delivery=latest",
                "seqlink.channels.latest.share.enabled=true", "seqlink.channels.latest.share.secret-file=" + key,
                "seqlink.channels.open.consumers=1", "seqlink.channels.open.share.enabled=true",
                "seqlink.channels.open.share.secret-file=" + open, "seqlink.channels.open.share.seats=65",
                "seqlink.channels.nokey.consumers=1", "seqlink.channels.nokey.share.enabled=true",
                "seqlink.channels.missing.consumers=1", "seqlink.channels.missing.share.enabled=true",
                "seqlink.channels.missing.share.secret-file=" + tmp.resolve("absent.key"),
                "seqlink.channels.both.consumers=1",
                "seqlink.attach.both.secret-file=" + key, "seqlink.attach.short.secret-file=" + shortKey,
                "seqlink.attach.nofile.device=-1", "seqlink.attach.short.reattach-interval=-1s").run(c -> {
                    assertThat(c).hasFailed();
                    String report = FailureAnalysisTester.report(FailureAnalysisTester.analyze(c.getStartupFailure()));
                    assertThat(report).contains("seqlink.channels.latest.share", "a shared channel must be lossless");
                    assertThat(report).contains("seqlink.channels.open.share.secret-file", "open to group or others",
                            "chmod 600 " + open);
                    assertThat(report).contains("seqlink.channels.open.share.seats", "outside 1 to 64");
                    assertThat(report).contains("seqlink.channels.nokey.share.secret-file", "it is not set", "openssl rand");
                    assertThat(report).contains("seqlink.channels.missing.share.secret-file", "does not exist");
                    assertThat(report).contains("seqlink.attach.both", "declared both here and as a channel of this process");
                    assertThat(report).contains("seqlink.attach.short.secret-file", "fewer than 16");
                    assertThat(report).contains("seqlink.attach.nofile.secret-file", "it is not set");
                    assertThat(report).contains("seqlink.attach.nofile.device", "not a device ordinal");
                    assertThat(report).contains("seqlink.attach.short.reattach-interval", "negative", "or 0 never to");
                    assertThat(report).doesNotContain(SECRET);
                });
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
    void anAttachedChannelWithoutAListenerIsWarnedAbout(org.springframework.boot.test.system.CapturedOutput output) {
        producer().run(p -> consumer().run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(output).contains("seqlink channel 'frames' (attached from another process): its consumer on device 1 "
                    + "has no listener", "remove seqlink.attach.frames");
        }));
    }

    @Test
    void aShareWithANonPositiveTimeoutIsReportedNotThrown() {
        runner().withPropertyValues("seqlink.channels.frames.share.enabled=true", "seqlink.channels.frames.share.secret-file=" + key,
                "seqlink.channels.frames.share.handshake-timeout=0s", "seqlink.channels.frames.share.heartbeat=-1s").run(c -> {
                    assertThat(c).hasFailed();
                    String report = FailureAnalysisTester.report(FailureAnalysisTester.analyze(c.getStartupFailure()));
                    assertThat(report).contains("seqlink.channels.frames.share.handshake-timeout", "zero: it must be positive");
                    assertThat(report).contains("seqlink.channels.frames.share.heartbeat", "negative: it must be positive");
                });
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(5);
        }
    }

    static class Recorder {
        final List<Long> values = new CopyOnWriteArrayList<>();
        final List<String> contexts = new CopyOnWriteArrayList<>();
        volatile int attemptsOf13;

        @ChannelListener(channel = "frames")
        void onFrame(Frame frame, ListenerContext context) {
            long v = TestChannels.readLong(frame.payload());
            if (v == 13) {
                attemptsOf13++;
                throw new IllegalStateException("frame 13 always fails");
            }
            values.add(v);
            contexts.add(context.channel() + " " + context.producer() + "->" + context.device());
        }
    }

    static class DeadLetters implements FrameErrorHandler {
        final List<Long> sequences = new CopyOnWriteArrayList<>();

        @Override
        public void onFailedFrame(Frame frame, Exception cause) {
            sequences.add(frame.sequence());
        }
    }
}

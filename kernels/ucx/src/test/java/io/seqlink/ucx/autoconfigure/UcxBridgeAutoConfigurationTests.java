package io.seqlink.ucx.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.ucx.LinkState;
import io.seqlink.ucx.ReceivingBridge;
import io.seqlink.ucx.UcxEnvironment;
import io.seqlink.ucx.UcxTransport;
import io.seqlink.ucx.autoconfigure.health.UcxBridgeHealthContributorAutoConfiguration;
import io.seqlink.ucx.autoconfigure.metrics.UcxBridgeMetricsAutoConfiguration;
import io.seqlink.ucx.metrics.UcxBridgeMetrics;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.openucx.jucx.ucp.UcpContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class UcxBridgeAutoConfigurationTests {

    private static final String RX_SECRET = "seqlink.ucx.receivers.frames.secret=autoconfigure-test-secret-0123";
    private static final String TX_SECRET = "seqlink.ucx.senders.frames.secret=autoconfigure-test-secret-0123";


    private static final String[] FRAMES = { "seqlink.backend=emulated", "seqlink.verify.enabled=false",
        "seqlink.channels.frames.producer=0", "seqlink.channels.frames.consumers=1", "seqlink.channels.frames.slots=16",
        "seqlink.channels.frames.slot-size=256B", "seqlink.ucx.config.TLS=tcp" };

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class, UcxBridgeAutoConfiguration.class,
                    UcxBridgeHealthContributorAutoConfiguration.class, UcxBridgeMetricsAutoConfiguration.class))
            .withPropertyValues(FRAMES);

    @Test
    void withoutBridgesConfiguredNothingLoadsUcx() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(UcxTransport.class).doesNotHaveBean(UcxBridges.class);
            assertThat(context).doesNotHaveBean("ucxHealthContributor");
        });
    }

    @Test
    void withoutTheJucxJarTheBridgesBackOffAndTheChannelsStillWork() {
        runner.withClassLoader(new FilteredClassLoader(UcpContext.class))
                .withPropertyValues(RX_SECRET, "seqlink.ucx.receivers.frames.listen=127.0.0.1:0").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(UcxBridges.class);
                    assertThat(context).hasBean("frames");
                });
    }

    @Test
    void misspeltUcxKeysFailStartupNamingTheNearestValidKeyEvenWhereTheyHideEveryBridge() {
        runner.withPropertyValues("seqlink.ucx.link.windw=8", "seqlink.ucx.close-timout=1s",
                "seqlink.ucx.sendrs.frames.peer=10.0.0.2:13337").run(context -> {
                    assertThat(context).hasFailed();
                    String message = configurationFailure(context.getStartupFailure()).getMessage();
                    assertThat(message).contains("seqlink.ucx.link.windw", "did you mean seqlink.ucx.link.window?",
                            "seqlink.ucx.close-timout", "did you mean seqlink.ucx.close-timeout?",
                            "seqlink.ucx.sendrs", "did you mean seqlink.ucx.senders?");
                });
    }

    @Test
    void everyConfigurationProblemIsReportedAtOnceNamingItsProperty() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        runner.withPropertyValues(TX_SECRET, "seqlink.ucx.senders.frames.peer=nowhere", "seqlink.ucx.senders.frames.consumer-device=7",
                "seqlink.ucx.senders.other.secret=autoconfigure-test-secret-0123", "seqlink.ucx.senders.other.peer=10.0.0.2:13337", "seqlink.ucx.senders.other.consumer-device=1",
                "seqlink.ucx.link.window=0").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(configurationFailure(context.getStartupFailure()).getMessage()).contains("seqlink.ucx.senders.frames.peer", "seqlink.ucx.senders.frames.consumer-device",
                            "seqlink.ucx.senders.other", "seqlink.ucx.senders.frames.window");
                });
    }

    @Test
    void aReceiverContextsChannelListenerGetsEveryFrameASenderContextPublishes() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        runner.withPropertyValues(RX_SECRET, "seqlink.ucx.receivers.frames.listen=127.0.0.1:0").withBean(Collector.class)
                .withBean(SimpleMeterRegistry.class).run(receiver -> {
                    assertThat(receiver).hasNotFailed();
                    ReceivingBridge in = (ReceivingBridge) receiver.getBean("ucxReceivers", UcxBridges.class).bridges().get("frames");
                    int port = in.boundAddress().getPort();
                    runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2",
                            TX_SECRET, "seqlink.ucx.senders.frames.peer=127.0.0.1:" + port, "seqlink.ucx.senders.frames.consumer-device=2")
                            .withBean(Collector.class).run(sender -> {
                                assertThat(sender).hasNotFailed();
                                PublishChannel frames = sender.getBean("frames", PublishChannel.class);
                                for (int i = 1; i <= 2000; i++) {
                                    byte[] payload = { (byte) i, (byte) (i >> 8) };
                                    while (frames.offer(payload, 0, 2) < 0) {
                                        Thread.onSpinWait();
                                    }
                                }
                                Collector local = sender.getBean(Collector.class);
                                Collector remote = receiver.getBean(Collector.class);
                                awaitCount(remote, 2000);
                                awaitCount(local, 2000);
                                assertThat(remote.sequences).hasSize(2000);
                                CompositeHealthContributor ucx = (CompositeHealthContributor) receiver.getBean("ucxHealthContributor");
                                HealthIndicator child = (HealthIndicator) ucx.getContributor("frames-receive");
                                assertThat(child.health(true).getStatus()).isEqualTo(Status.UP);
                                assertThat(child.health(true).getDetails()).containsEntry("state", LinkState.CONNECTED.name());
                                SimpleMeterRegistry meters = receiver.getBean(SimpleMeterRegistry.class);
                                receiver.getBean(UcxBridgeMetrics.class).bindTo(meters);
                                awaitMeter(meters, 2000);
                            });
                });
    }

    @Test
    void bridgesStoppedAndStartedAgainCarryOnWithEveryFrameArriving() throws Exception {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        runner.withPropertyValues(RX_SECRET, "seqlink.ucx.receivers.frames.listen=127.0.0.1:" + port).withBean(Collector.class).run(receiver -> {
            assertThat(receiver).hasNotFailed();
            runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2",
                    TX_SECRET, "seqlink.ucx.senders.frames.peer=127.0.0.1:" + port, "seqlink.ucx.senders.frames.consumer-device=2")
                    .withBean(Collector.class).run(sender -> {
                        assertThat(sender).hasNotFailed();
                        PublishChannel frames = sender.getBean("frames", PublishChannel.class);
                        Collector remote = receiver.getBean(Collector.class);
                        UcxBridges senders = sender.getBean("ucxSenders", UcxBridges.class);
                        UcxBridges receivers = receiver.getBean("ucxReceivers", UcxBridges.class);
                        offer(frames, 1, 1000);
                        awaitCount(remote, 1000);

                        senders.stop();
                        receivers.stop();
                        assertThat(senders.bridges()).isEmpty();
                        assertThat(frames.consumer(2).subscribed()).as("the stopped sender left its port").isFalse();
                        offer(frames, 1001, 1010); // wait in the sender's channel meanwhile
                        receivers.start();
                        senders.start();
                        assertThat(senders.isRunning()).isTrue();
                        offer(frames, 1011, 2000);
                        awaitCount(remote, 2000);
                        assertThat(senders.snapshot("frames").state()).isEqualTo(LinkState.CONNECTED);
                    });
        });
    }

    @Test
    void aReceiverWithoutASecretFailsStartupNamingThePropertyAndTheFix() {
        runner.withPropertyValues("seqlink.ucx.receivers.frames.listen=127.0.0.1:0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationFailure(context.getStartupFailure()).getMessage()).contains(
                    "seqlink.ucx.receivers.frames.secret", "secret-file", "allow-unauthenticated: true", "openssl rand");
        });
    }

    @Test
    void aSenderWithoutASecretFailsStartupLikewise() {
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2",
                "seqlink.ucx.senders.frames.peer=10.0.0.2:13337", "seqlink.ucx.senders.frames.consumer-device=2").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(configurationFailure(context.getStartupFailure()).getMessage()).contains(
                            "seqlink.ucx.senders.frames.secret", "allow-unauthenticated");
                });
    }

    @Test
    void aShortSecretAndAWildcardListenAddressFailStartupNamingTheirProperties() {
        runner.withPropertyValues("seqlink.ucx.receivers.frames.listen=0.0.0.0:13337", "seqlink.ucx.receivers.frames.secret=short")
                .run(context -> {
                    assertThat(context).hasFailed();
                    String message = configurationFailure(context.getStartupFailure()).getMessage();
                    assertThat(message).contains("seqlink.ucx.receivers.frames.secret", "fewer than 16")
                            .doesNotContain("=short").doesNotContain(" short");
                    assertThat(message).contains("seqlink.ucx.receivers.frames.listen", "allow-wildcard: true", "10.0.0.2:13337");
                });
    }

    @Test
    void anExplicitOptOutStartsAReceiverWithoutASecretAndTheSecretNeverShowsInTheProperties() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        runner.withPropertyValues("seqlink.ucx.receivers.frames.listen=127.0.0.1:0",
                "seqlink.ucx.receivers.frames.allow-unauthenticated=true").run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues(RX_SECRET, "seqlink.ucx.receivers.frames.listen=127.0.0.1:0").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(UcxBridgeProperties.class).toString()).doesNotContain("autoconfigure-test-secret")
                    .contains("secret=redacted");
        });
    }

    private static void offer(PublishChannel frames, int from, int to) {
        for (int i = from; i <= to; i++) {
            byte[] payload = { (byte) i, (byte) (i >> 8) };
            while (frames.offer(payload, 0, 2) < 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void aSenderWhosePeerIsNotListeningIsDownInHealthSayingWhy() throws Exception {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // nobody listens there once it is closed
        }
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2",
                TX_SECRET, "seqlink.ucx.senders.frames.peer=127.0.0.1:" + closed, "seqlink.ucx.senders.frames.consumer-device=2",
                "seqlink.ucx.link.connect-timeout=300ms").run(context -> {
                    assertThat(context).hasNotFailed();
                    HealthIndicator child = child(context, "frames-send");
                    Health h = awaitHealth(child, x -> x.getDetails().get("problem") != null);
                    assertThat(h.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(h.getDetails()).containsEntry("state", LinkState.CONNECTING.name())
                            .containsEntry("peer", "/127.0.0.1:" + closed);
                    assertThat((String) h.getDetails().get("problem")).containsAnyOf("endpoint error", "did not answer the handshake",
                            "could not be sent");
                });
    }

    @Test
    void aSenderTheReceiverRefusesIsRefusedInHealthSayingWhatToRaise() {
        assumeTrue(UcxEnvironment.probe().available(), () -> "UCX test skipped: " + UcxEnvironment.probe().problem());
        runner.withPropertyValues(RX_SECRET, "seqlink.ucx.receivers.frames.listen=127.0.0.1:0").run(receiver -> {
            assertThat(receiver).hasNotFailed();
            ReceivingBridge in = (ReceivingBridge) receiver.getBean("ucxReceivers", UcxBridges.class).bridges().get("frames");
            runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2",
                    "seqlink.channels.frames.slot-size=1KB", TX_SECRET, "seqlink.ucx.senders.frames.peer=127.0.0.1:" + in.boundAddress().getPort(),
                    "seqlink.ucx.senders.frames.consumer-device=2").run(sender -> {
                        assertThat(sender).hasNotFailed();
                        Health h = awaitHealth(child(sender, "frames-send"), x -> "REFUSED".equals(x.getDetails().get("state")));
                        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
                        assertThat((String) h.getDetails().get("problem")).contains("the receiver refused the link",
                                "raise slot-size of the receiving channel to at least 1024 B");
                    });
        });
    }

    private static Throwable configurationFailure(Throwable startup) {
        Throwable failure = startup;
        while (failure != null && !(failure instanceof SeqlinkConfigurationException)) {
            failure = failure.getCause();
        }
        assertThat(failure).as("a SeqlinkConfigurationException in " + startup).isInstanceOf(SeqlinkConfigurationException.class);
        return failure;
    }

    private static HealthIndicator child(org.springframework.context.ApplicationContext context, String name) {
        return (HealthIndicator) ((CompositeHealthContributor) context.getBean("ucxHealthContributor")).getContributor(name);
    }

    private static Health awaitHealth(HealthIndicator indicator, java.util.function.Predicate<Health> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Health h = indicator.health(true);
        while (!condition.test(h) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            h = indicator.health(true);
        }
        assertThat(condition.test(h)).as("health reached the expected state; last: " + h.getStatus() + " " + h.getDetails()).isTrue();
        return h;
    }

    private static void awaitCount(Collector c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (c.sequences.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(c.sequences).hasSize(n);
    }

    private static void awaitMeter(SimpleMeterRegistry meters, double n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (meters.get("seqlink.ucx.frames").tag("role", "receive").functionCounter().count() < n
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(meters.get("seqlink.ucx.frames").tag("channel", "frames").functionCounter().count()).isEqualTo(n);
        assertThat(meters.get("seqlink.ucx.connected").gauge().value()).isEqualTo(1.0);
    }

    /** An ordinary listener on device 1: on the sender host a local consumer, on the receiver host the bridged frames. */
    static class Collector {
        final Set<Integer> sequences = ConcurrentHashMap.newKeySet();

        @ChannelListener(channel = "frames", device = 1)
        void onFrame(Frame frame) {
            sequences.add((frame.payload().get(0) & 0xff) | (frame.payload().get(1) & 0xff) << 8);
        }
    }
}

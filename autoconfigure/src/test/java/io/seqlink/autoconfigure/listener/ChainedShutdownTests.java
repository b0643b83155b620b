package io.seqlink.autoconfigure.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Chained channels closed through Spring: a listener of {@code upstream} publishes every frame to
 * {@code downstream}; closing the context under load delivers every frame through the chain, whichever
 * channel is declared first. A listener that blocks does not make the registry's stop overrun its
 * timeout by more than a second, and it is named in the drain report; beside a chain on the same
 * device it holds up neither the chain's delivery nor its drain, and every frame it was offered is
 * delivered or counted.
 */
class ChainedShutdownTests {

    private static final int FRAMES = 3_000;

    @ParameterizedTest(name = "downstream declared first: {0}")
    @ValueSource(booleans = {true, false})
    void closingTheContextDeliversEveryFrameThroughAChainOfListeners(boolean downstreamFirst) throws Exception {
        for (int round = 0; round < 5; round++) {
            List<String> channels = downstreamFirst
                    ? List.of("--seqlink.channels.downstream.producer=1", "--seqlink.channels.downstream.consumers=2",
                            "--seqlink.channels.upstream.producer=0", "--seqlink.channels.upstream.consumers=1")
                    : List.of("--seqlink.channels.upstream.producer=0", "--seqlink.channels.upstream.consumers=1",
                            "--seqlink.channels.downstream.producer=1", "--seqlink.channels.downstream.consumers=2");
            ConfigurableApplicationContext context = start(ChainApp.class, channels, "--seqlink.shutdown.drain-timeout=20s");
            PublishChannel upstream = context.getBean("upstream", PublishChannel.class);
            Sink sink = context.getBean(Sink.class);
            Forwarder forwarder = context.getBean(Forwarder.class);
            publish(upstream, FRAMES);
            ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
            context.close(); // most frames are still on their way through the chain
            assertThat(sink.arrived.get()).as("round %d: frames through the chain, of %d; reports %s", round, FRAMES,
                    registry.drainReports()).isEqualTo(FRAMES);
            assertThat(registry.drainReports()).allSatisfy(r -> assertThat(r.clean()).as("%s", r).isTrue());
            assertThat(forwarder.refused.get()).isZero();
        }
    }

    @Test
    void stoppingWhileAListenerBlocksKeepsTheTimeoutAndNamesTheListener() throws Exception {
        ConfigurableApplicationContext context = start(BlockedApp.class,
                List.of("--seqlink.channels.frames.producer=0", "--seqlink.channels.frames.consumers=1"),
                "--seqlink.shutdown.drain-timeout=300ms");
        PublishChannel frames = context.getBean("frames", PublishChannel.class);
        Blocking blocking = context.getBean(Blocking.class);
        ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
        assertThat(frames.offer(new byte[8], 0, 8)).isEqualTo(1);
        assertThat(blocking.entered.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        try {
            context.close();
        } finally {
            blocking.release.countDown();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(millis).as("the context closed in %d ms with a 300 ms drain timeout", millis).isLessThan(1_300);
        DrainReport report = registry.drainReports().get(0);
        assertThat(report.timedOut()).isTrue();
        assertThat(report.undelivered()).as("the one frame was handed to the listener: delivered").isEmpty();
        assertThat(report.listenersNotReturned()).hasEntrySatisfying(1,
                l -> assertThat(l).contains("Blocking.onFrame").contains("blocking"));
    }

    @Test
    void aListenerBlockedAtShutdownBesideAChainOnItsDeviceLosesNothingAndKeepsTheTimeout() throws Exception {
        ConfigurableApplicationContext context = start(ChainBesideStuckApp.class,
                List.of("--seqlink.channels.upstream.producer=0", "--seqlink.channels.upstream.consumers=1",
                        "--seqlink.channels.downstream.producer=1", "--seqlink.channels.downstream.consumers=2",
                        "--seqlink.channels.stuck.producer=0", "--seqlink.channels.stuck.consumers=1"),
                "--seqlink.shutdown.drain-timeout=3s");
        PublishChannel upstream = context.getBean("upstream", PublishChannel.class);
        PublishChannel stuck = context.getBean("stuck", PublishChannel.class);
        Sink sink = context.getBean(Sink.class);
        Forwarder forwarder = context.getBean(Forwarder.class);
        StuckListener stuckListener = context.getBean(StuckListener.class);
        ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
        long stuckAccepted = 0;
        for (int i = 0; i < StuckListener.QUICK + 10; i++) {
            if (stuck.offer(new byte[8], 0, 8) > 0) {
                stuckAccepted++;
            }
        }
        assertThat(stuckListener.blocked.await(10, TimeUnit.SECONDS)).as("the stuck listener blocks").isTrue();
        int chained = 1_000;
        publish(upstream, chained);
        long start = System.nanoTime();
        try {
            context.close(); // the chain's frames are still on their way; the stuck listener never returns in time
        } finally {
            stuckListener.release.countDown();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        List<DrainReport> reports = registry.drainReports();
        assertThat(millis).as("the context closed in %d ms with a 3 s drain timeout; reports %s", millis, reports).isLessThan(4_000);
        assertThat(sink.arrived.get()).as("frames through the chain, of %d; reports %s", chained, reports).isEqualTo(chained);
        assertThat(forwarder.refused.get()).isZero();
        assertThat(reports).filteredOn(r -> !r.channel().equals("stuck")).hasSize(2)
                .allSatisfy(r -> assertThat(r.clean()).as("%s", r).isTrue());
        DrainReport stuckReport = reports.stream().filter(r -> r.channel().equals("stuck")).findFirst().orElseThrow();
        assertThat(stuckReport.timedOut()).isTrue();
        assertThat(stuckReport.listenersNotReturned()).hasEntrySatisfying(1,
                l -> assertThat(l).contains("StuckListener.onFrame").contains("stuck-listener"));
        assertThat(stuckListener.returned.get()).isEqualTo(StuckListener.QUICK);
        // nothing accepted is lost and the count is exact: the frames it returned from and the one it blocks in
        // were handed to it (delivered); every other one is undelivered
        assertThat(stuckReport.published()).isEqualTo(stuckAccepted);
        assertThat(stuckReport.undelivered().getOrDefault(1, 0L)).as("report %s", stuckReport)
                .isEqualTo(stuckAccepted - StuckListener.QUICK - 1);
    }

    /** Publishes {@code frames} frames, each carrying its sequence, waiting for slots as it goes. */
    private static void publish(PublishChannel channel, int frames) {
        for (int published = 0; published < frames; ) {
            long seq = channel.claim(1, TimeUnit.SECONDS);
            if (seq > 0) {
                channel.buffer().putLong(0, seq);
                channel.commit(8);
                channel.publish();
                published++;
            }
        }
    }

    private static ConfigurableApplicationContext start(Class<?> app, List<String> channels, String... extra) {
        SpringApplication application = new SpringApplication(app);
        application.setWebApplicationType(WebApplicationType.NONE);
        List<String> args = new ArrayList<>(List.of("--seqlink.backend=emulated", "--seqlink.emulated.device-count=3",
                "--seqlink.verify.enabled=false", "--spring.main.banner-mode=off", "--logging.level.root=WARN"));
        args.addAll(channels);
        args.addAll(List.of(extra));
        return application.run(args.toArray(String[]::new));
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class ChainApp {
        @Bean
        Forwarder forwarder(@Qualifier("downstream") PublishChannel downstream) {
            return new Forwarder(downstream);
        }

        @Bean
        Sink sink() {
            return new Sink();
        }
    }

    /** Forwards every upstream frame downstream, from its listener. */
    static class Forwarder {
        private final PublishChannel downstream;
        final AtomicLong refused = new AtomicLong();

        Forwarder(PublishChannel downstream) {
            this.downstream = downstream;
        }

        @ChannelListener("upstream")
        void onFrame(Frame frame) {
            long seq;
            while ((seq = downstream.offer(frame.payload())) == ClaimStatus.BACK_PRESSURED) {
                Thread.onSpinWait();
            }
            if (seq < 0) {
                refused.incrementAndGet();
            }
        }
    }

    static class Sink {
        final AtomicLong arrived = new AtomicLong();

        @ChannelListener("downstream")
        void onFrame(Frame frame) {
            arrived.incrementAndGet();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class BlockedApp {
        @Bean
        Blocking blocking() {
            return new Blocking();
        }
    }

    static class Blocking {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @ChannelListener(channel = "frames", id = "blocking")
        void onFrame(Frame frame) throws InterruptedException {
            entered.countDown();
            release.await();
        }
    }

    /** The chain, and a listener that blocks on its own channel. */
    @Configuration(proxyBeanMethods = false)
    @Import(ChainApp.class)
    static class ChainBesideStuckApp {
        @Bean
        StuckListener stuckListener() {
            return new StuckListener();
        }
    }

    /** Returns from its first {@value #QUICK} frames, then blocks on the next until released. */
    static class StuckListener {
        static final int QUICK = 5;
        final AtomicLong returned = new AtomicLong();
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @ChannelListener(channel = "stuck", id = "stuck-listener")
        void onFrame(Frame frame) throws InterruptedException {
            if (returned.get() == QUICK) {
                blocked.countDown();
                release.await();
                return;
            }
            returned.incrementAndGet();
        }
    }
}

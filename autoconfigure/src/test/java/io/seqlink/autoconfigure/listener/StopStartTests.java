package io.seqlink.autoconfigure.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code context.stop()} then {@code context.start()}, as spring-kafka's containers take it: stop pauses
 * delivery (the channels stay open, producers keep publishing into the rings), start resumes it with
 * every frame published meanwhile, and {@code isRunning()} says which. Closing a stopped context still
 * delivers what was published while it was stopped.
 */
class StopStartTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void stopPausesDeliveryAndStartResumesItWithEveryFramePublishedMeanwhile() {
        try (ConfigurableApplicationContext context = start()) {
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            Collector collector = context.getBean(Collector.class);
            ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
            publish(frames, 1, 10);
            await(() -> collector.values.size() == 10, "the first 10 frames delivered");

            context.stop();
            assertThat(registry.isRunning()).as("stopped: the registry says so").isFalse();
            assertThat(frames.state()).as("the channel stays open while the context is stopped").isEqualTo(ChannelState.OPEN);
            publish(frames, 11, 20); // producers keep publishing: the ring holds the frames
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            assertThat(collector.values).as("nothing is delivered while stopped").hasSize(10);

            context.start();
            assertThat(registry.isRunning()).isTrue();
            publish(frames, 21, 30);
            await(() -> collector.values.size() == 30, "every frame, those published while stopped included");
            assertThat(collector.values).as("in order, once each").containsExactlyElementsOf(range(1, 30));
        }
    }

    @Test
    void stopAndStartTwiceKeepsDelivering() {
        try (ConfigurableApplicationContext context = start()) {
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            Collector collector = context.getBean(Collector.class);
            for (int cycle = 0; cycle < 2; cycle++) {
                context.stop();
                publish(frames, cycle * 10 + 1, cycle * 10 + 10);
                context.start();
            }
            await(() -> collector.values.size() == 20, "20 frames over two stop/start cycles");
            assertThat(collector.values).containsExactlyElementsOf(range(1, 20));
        }
    }

    @Test
    void closingAStoppedContextDeliversWhatWasPublishedWhileItWasStopped() {
        ConfigurableApplicationContext context = start();
        PublishChannel frames = context.getBean("frames", PublishChannel.class);
        Collector collector = context.getBean(Collector.class);
        ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
        context.stop();
        publish(frames, 1, 12);
        context.close();
        assertThat(collector.values).as("the close drains the frames published while stopped")
                .containsExactlyElementsOf(range(1, 12));
        List<DrainReport> reports = registry.drainReports();
        assertThat(reports).singleElement().satisfies(r -> assertThat(r.clean()).as(r.describe()).isTrue());
        assertThat(registry.isRunning()).isFalse();
    }

    @Test
    void theRegistryStopsAfterTheWebServersGracefulShutdownAndBeforeTheServerStops() {
        // stop runs in descending phase: graceful shutdown (requests finish), then seqlink drains, then the server stops
        assertThat(ChannelListenerEndpointRegistry.DEFAULT_PHASE)
                .isLessThan(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE)
                .isGreaterThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE);
    }

    private static ConfigurableApplicationContext start() {
        SpringApplication app = new SpringApplication(StopStartApp.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        return app.run("--seqlink.backend=emulated", "--seqlink.verify.enabled=false", "--seqlink.channels.frames.consumers=1",
                "--seqlink.channels.frames.slots=64", "--seqlink.channels.frames.slot-size=64B", "--spring.main.banner-mode=off",
                "--logging.level.root=WARN");
    }

    private static void publish(PublishChannel frames, long from, long to) {
        for (long v = from; v <= to; v++) {
            TestChannels.publishLong(frames, v);
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for: %s", what).isNegative();
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static List<Long> range(long from, long to) {
        List<Long> l = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            l.add(i);
        }
        return l;
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
            SeqlinkListenerAutoConfiguration.class })
    static class StopStartApp {
        @Bean
        Collector collector() {
            return new Collector();
        }
    }

    static class Collector {
        final List<Long> values = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrame(Frame frame) {
            values.add(TestChannels.readLong(frame.payload()));
        }
    }
}

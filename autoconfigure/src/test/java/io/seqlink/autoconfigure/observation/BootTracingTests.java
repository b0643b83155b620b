package io.seqlink.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The trace round trip as Spring Boot wires tracing (its observation, Micrometer Tracing and Brave
 * auto-configurations, default W3C propagation): nothing of seqlink's but the properties, and the listener's span
 * continues the publish span of the request's trace.
 */
class BootTracingTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, BraveAutoConfiguration.class,
                    MicrometerTracingAutoConfiguration.class, SeqlinkAutoConfiguration.class,
                    SeqlinkChannelsAutoConfiguration.class, SeqlinkListenerAutoConfiguration.class,
                    SeqlinkObservationAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues("seqlink.verify.enabled=false", "management.tracing.sampling.probability=1.0",
                    "seqlink.observation.channels.frames.enabled=true")
            .withUserConfiguration(Spans.class, TraceRoundTripTests.Listener.class);

    @Test
    void aRequestsTraceReachesTheListenerThroughTheChannel() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            Tracer tracer = context.getBean(Tracer.class);
            String[] request = new String[2];
            Observation.createNotStarted("http.server.requests", context.getBean(ObservationRegistry.class)).observe(() -> {
                request[0] = tracer.currentSpan().context().traceId();
                request[1] = tracer.currentSpan().context().spanId();
                ByteBuffer src = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 7);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (frames.offer(src) <= 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            });
            TraceRoundTripTests.Listener listener = context.getBean(TraceRoundTripTests.Listener.class);
            List<MutableSpan> spans = context.getBean(Spans.class).spans;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((listener.seen.isEmpty() || spans.size() < 3) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            assertThat(listener.seen).hasSize(1);
            TraceRoundTripTests.Seen seen = listener.seen.get(0);
            assertThat(seen.hasContext()).isTrue();
            assertThat(seen.traceId()).isEqualTo(request[0]);
            MutableSpan process = spans.stream().filter(s -> s.id().equals(seen.spanId())).findFirst().orElseThrow();
            MutableSpan publish = spans.stream().filter(s -> s.id().equals(process.parentId())).findFirst().orElseThrow();
            assertThat(publish.name()).isEqualTo("frames publish");
            assertThat(publish.parentId()).isEqualTo(request[1]);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Spans {
        final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

        @Bean
        SpanHandler collectingSpanHandler() {
            return new SpanHandler() {
                @Override
                public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                    spans.add(span);
                    return true;
                }
            };
        }
    }
}

package io.seqlink.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.propagation.Propagator;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One trace from a parent observation (a request's) through a channel to its listener, with Micrometer Tracing over
 * Brave in memory and W3C propagation (Spring Boot's default): the publish span is a child of the request's, and the
 * listener's span continues the trace with the publish span as its parent, on the listener's thread. A channel that
 * is not observed, and frames the sampler leaves out, carry no context and make no span.
 */
class TraceRoundTripTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class, SeqlinkObservationAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues("seqlink.verify.enabled=false")
            .withUserConfiguration(InMemoryTracing.class, Listener.class);

    @Test
    void theListenersSpanContinuesThePublishSpanOfTheRequestsTrace() {
        runner.withPropertyValues("seqlink.observation.channels.frames.enabled=true").run(context -> {
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            Tracer tracer = context.getBean(Tracer.class);
            Listener listener = context.getBean(Listener.class);
            String[] request = new String[2];
            Observation.createNotStarted("http.server.requests", registry).observe(() -> {
                Span current = tracer.currentSpan();
                request[0] = current.context().traceId();
                request[1] = current.context().spanId();
                offer(frames, 1);                 // the offer path
                TestChannels.publishLong(frames, 2); // the claim path: claim, write, commit, publish
            });
            assertThat(await(() -> listener.seen.size() >= 2)).as("listener calls: %s", listener.seen).isTrue();
            List<MutableSpan> spans = context.getBean(InMemoryTracing.class).spans;
            assertThat(await(() -> spans.size() >= 5)).as("spans: %s", spans).isTrue(); // request, 2 x (publish, process)
            assertThat(frames.getClass().getSimpleName()).isEqualTo("ObservedPublishChannel");
            for (Seen s : listener.seen) {
                assertThat(s.hasContext).as("spans %s, seen %s", spans, listener.seen).isTrue();
                assertThat(s.traceId).as("the listener's trace").isEqualTo(request[0]);
                MutableSpan process = span(spans, s.spanId);
                assertThat(process.name()).isEqualTo("frames process");
                assertThat(process.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
                assertThat(process.tag("seqlink.channel")).isEqualTo("frames");
                assertThat(process.tag("seqlink.consumer.device")).isEqualTo("1");
                MutableSpan publish = span(spans, process.parentId());
                assertThat(publish.name()).isEqualTo("frames publish");
                assertThat(publish.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
                assertThat(publish.parentId()).as("the publish span's parent: the request's").isEqualTo(request[1]);
                assertThat(publish.traceId()).isEqualTo(request[0]);
            }
        });
    }

    @Test
    void aChannelNotObservedCarriesNoContextAndMakesNoSpan() {
        runner.run(context -> {
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            assertThat(frames.getClass().getSimpleName()).as("the runtime's channel itself").isEqualTo("DefaultPublishChannel");
            Listener listener = context.getBean(Listener.class);
            Observation.createNotStarted("http.server.requests", context.getBean(ObservationRegistry.class))
                    .observe(() -> offer(frames, 1));
            assertThat(await(() -> listener.seen.size() >= 1)).isTrue();
            assertThat(listener.seen.get(0).hasContext).isFalse();
            assertThat(listener.seen.get(0).traceId).as("no span around the listener").isNull();
            assertThat(context.getBean(InMemoryTracing.class).spans).extracting(MutableSpan::name)
                    .containsExactly("http.server.requests");
        });
    }

    @Test
    void framesTheSamplerLeavesOutCarryNoContext() {
        runner.withPropertyValues("seqlink.observation.channels.frames.enabled=true",
                "seqlink.observation.channels.frames.sampling-probability=0").run(context -> {
                    PublishChannel frames = context.getBean("frames", PublishChannel.class);
                    Listener listener = context.getBean(Listener.class);
                    Observation.createNotStarted("http.server.requests", context.getBean(ObservationRegistry.class))
                            .observe(() -> {
                                for (long i = 1; i <= 20; i++) {
                                    offer(frames, i);
                                }
                            });
                    assertThat(await(() -> listener.seen.size() >= 20)).isTrue();
                    assertThat(listener.seen).allSatisfy(s -> assertThat(s.hasContext).isFalse());
                    assertThat(context.getBean(InMemoryTracing.class).spans).hasSize(1);
                });
    }

    @Test
    void anObservedChannelThatIsNotConfiguredOrABadProbabilityFailsStartupNamingTheProperty() {
        runner.withPropertyValues("seqlink.observation.channels.framez.enabled=true",
                "seqlink.observation.channels.frames.sampling-probability=1.5").run(context -> {
                    assertThat(context).hasFailed();
                    String message = rootMessages(context.getStartupFailure());
                    assertThat(message).contains("seqlink.observation.channels.framez.enabled").contains("frames")
                            .contains("seqlink.observation.channels.frames.sampling-probability");
                });
    }

    private static String rootMessages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append('\n');
        }
        return b.toString();
    }

    private static void offer(PublishChannel channel, long value) {
        ByteBuffer src = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (channel.offer(src) <= 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no slot in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    /** The span of {@code spans} whose id is {@code id}. */
    static MutableSpan span(List<MutableSpan> spans, @Nullable String id) {
        return spans.stream().filter(s -> s.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + id + " among " + spans));
    }

    /** Whether {@code condition} holds within 60 s, looked at every millisecond. */
    static boolean await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return condition.getAsBoolean();
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    record Seen(boolean hasContext, String traceId, String spanId) {
    }

    static class Listener {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        private final Tracer tracer;

        Listener(Tracer tracer) {
            this.tracer = tracer;
        }

        @ChannelListener(channel = "frames")
        void onFrame(Frame frame) {
            Span span = tracer.currentSpan();
            TraceContext c = span == null ? null : span.context();
            seen.add(new Seen(frame.hasContext(), c == null ? null : c.traceId(), c == null ? null : c.spanId()));
        }
    }

    /** Micrometer Tracing over Brave, W3C propagation, every span kept in memory; the handlers Boot registers. */
    @Configuration(proxyBeanMethods = false)
    static class InMemoryTracing {
        final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

        @Bean(destroyMethod = "close")
        Tracing braveTracing() {
            return Tracing.newBuilder().traceId128Bit(true).propagationFactory(new W3CPropagation())
                    .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
                    .addSpanHandler(new SpanHandler() {
                        @Override
                        public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                            spans.add(span);
                            return true;
                        }
                    }).build();
        }

        @Bean
        Tracer tracer(Tracing tracing) {
            return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                    new BraveBaggageManager());
        }

        @Bean
        Propagator propagator(Tracing tracing) {
            return new BravePropagator(tracing);
        }

        @Bean
        ObservationRegistry observationRegistry(Tracer tracer, Propagator propagator) {
            return TracingCost.tracingRegistry(tracer, propagator);
        }
    }
}

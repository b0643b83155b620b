package io.seqlink.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.observation.ChannelObservations;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A device listener's stage carries a frame's trace on, on the emulated backend: the frames of channel {@code frames}
 * (device 0 to a device listener on device 1) carry the request's trace; the stage starts each frame's
 * {@code seqlink.process} observation from {@link DeviceFrames#context(long, io.seqlink.channel.FrameContext)} as its
 * listener runs ({@link ChannelObservations#startProcess}), and another thread, once the frame's "work" is done,
 * publishes the frame's result on channel {@code results} (device 1 to a host listener on device 0, observed with
 * sampling probability 0) in that observation's scope. One trace: request, {@code frames publish},
 * {@code frames process} (device 1), {@code results publish}, {@code results process} (device 0), each the child of
 * the one before. A result published outside such a scope on {@code results} is not observed (its sampler's 0), and on
 * a channel that is not observed the stage gets no observation.
 */
class DeviceListenerTraceTests {

    private static final String[] RESULTS = {
            "seqlink.channels.results.producer=1",
            "seqlink.channels.results.consumers=0",
            "seqlink.channels.results.slots=16",
            "seqlink.channels.results.slot-size=256B" };

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class, SeqlinkObservationAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues(RESULTS)
            .withPropertyValues("seqlink.verify.enabled=false", "seqlink.observation.channels.results.enabled=true",
                    "seqlink.observation.channels.results.sampling-probability=0")
            .withUserConfiguration(TraceRoundTripTests.InMemoryTracing.class, Stage.class, Collector.class);

    @Test
    void aFramesTraceGoesOnThroughTheDeviceStageToTheNextChannelsListener() {
        runner.withPropertyValues("seqlink.observation.channels.frames.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            PublishChannel results = context.getBean("results", PublishChannel.class);
            Tracer tracer = context.getBean(Tracer.class);
            Stage stage = context.getBean(Stage.class);
            Collector collector = context.getBean(Collector.class);
            List<MutableSpan> spans = context.getBean(TraceRoundTripTests.InMemoryTracing.class).spans;
            String[] request = new String[2];
            Observation.createNotStarted("http.server.requests", context.getBean(ObservationRegistry.class)).observe(() -> {
                Span current = tracer.currentSpan();
                request[0] = current.context().traceId();
                request[1] = current.context().spanId();
                for (long v = 1; v <= 3; v++) {
                    TestChannels.publishLong(frames, v);
                }
            });
            // the stage's other thread: each frame's result, published in its observation's scope, which it then stops
            for (int i = 0; i < 3; i++) {
                Pending p = stage.take();
                assertThat(p.observation()).as("frame %s carries the request's trace", p.sequence()).isNotNull();
                try (Observation.Scope scope = p.observation().openScope()) {
                    TestChannels.publishLong(results, 100 + p.sequence());
                } finally {
                    p.observation().stop();
                }
            }
            TestChannels.publishLong(results, 999); // outside any frame's handling: sampled at 0, not observed
            assertThat(TraceRoundTripTests.await(() -> collector.seen.size() >= 4 && spans.size() >= 13))
                    .as("seen %s, spans %s", collector.seen, spans).isTrue(); // the request, and per frame: 2 publish, 2 process
            assertThat(stage.rounds.get()).as("the stage was a device listener").isPositive();
            for (Seen s : collector.seen) {
                if (s.value() == 999) {
                    assertThat(s.hasContext()).as("a result published outside a frame's handling").isFalse();
                    assertThat(s.spanId()).isNull();
                    continue;
                }
                assertThat(s.hasContext()).isTrue();
                assertThat(s.traceId()).as("the collector's trace").isEqualTo(request[0]);
                MutableSpan process = TraceRoundTripTests.span(spans, s.spanId());
                assertThat(process.name()).isEqualTo("results process");
                assertThat(process.tag("seqlink.consumer.device")).isEqualTo("0");
                MutableSpan resultsPublish = TraceRoundTripTests.span(spans, process.parentId());
                assertThat(resultsPublish.name()).isEqualTo("results publish");
                assertThat(resultsPublish.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
                MutableSpan stageSpan = TraceRoundTripTests.span(spans, resultsPublish.parentId());
                assertThat(stageSpan.name()).isEqualTo("frames process");
                assertThat(stageSpan.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
                assertThat(stageSpan.tag("seqlink.consumer.device")).isEqualTo("1");
                assertThat(stageSpan.tag("seqlink.channel")).isEqualTo("frames");
                MutableSpan framesPublish = TraceRoundTripTests.span(spans, stageSpan.parentId());
                assertThat(framesPublish.name()).isEqualTo("frames publish");
                assertThat(framesPublish.parentId()).as("the frames' publish span's parent: the request's").isEqualTo(request[1]);
                for (MutableSpan m : List.of(process, resultsPublish, stageSpan, framesPublish)) {
                    assertThat(m.traceId()).isEqualTo(request[0]);
                }
            }
            assertThat(spans).filteredOn(m -> m.name().equals("frames process")).hasSize(3);
            assertThat(spans).filteredOn(m -> m.name().equals("results publish")).hasSize(3);
        });
    }

    @Test
    void onAChannelThatIsNotObservedTheStageGetsNoObservation() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            PublishChannel frames = context.getBean("frames", PublishChannel.class);
            Stage stage = context.getBean(Stage.class);
            Observation.createNotStarted("http.server.requests", context.getBean(ObservationRegistry.class))
                    .observe(() -> TestChannels.publishLong(frames, 1));
            Pending p = stage.take();
            assertThat(p.observation()).isNull();
            assertThat(p.hadContext()).as("the frame carries no context").isFalse();
            assertThat(context.getBean(TraceRoundTripTests.InMemoryTracing.class).spans).extracting(MutableSpan::name)
                    .containsExactly("http.server.requests");
        });
    }

    /** A frame the stage's listener took: its observation (none when the frame carries no trace). */
    record Pending(long sequence, @Nullable Observation observation, boolean hadContext) {
    }

    /** The device listener: per frame of its round, starts the frame's observation and hands it on. */
    static class Stage {
        private final ChannelObservations observations;
        private final BlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
        final AtomicInteger rounds = new AtomicInteger();

        Stage(ChannelObservations observations) {
            this.observations = observations;
        }

        @ChannelListener(channel = "frames")
        void infer(DeviceFrames frames) {
            rounds.incrementAndGet();
            List<Pending> taken = new ArrayList<>();
            for (long s = frames.first(); s <= frames.last(); s++) {
                taken.add(new Pending(s, observations.startProcess(frames, s), frames.hasContext(s)));
            }
            pending.addAll(taken);
        }

        Pending take() throws InterruptedException {
            Pending p = pending.poll(60, TimeUnit.SECONDS);
            if (p == null) {
                throw new AssertionError("the device listener was not called in 60 s");
            }
            return p;
        }
    }

    record Seen(long value, boolean hasContext, @Nullable String traceId, @Nullable String spanId) {
    }

    /** The host listener of the results: what it was called with, and the span it ran in. */
    static class Collector {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        private final Tracer tracer;

        Collector(Tracer tracer) {
            this.tracer = tracer;
        }

        @ChannelListener(channel = "results")
        void collect(Frame frame) {
            Span span = tracer.currentSpan();
            seen.add(new Seen(frame.payload().duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(0), frame.hasContext(),
                    span == null ? null : span.context().traceId(), span == null ? null : span.context().spanId()));
        }
    }
}

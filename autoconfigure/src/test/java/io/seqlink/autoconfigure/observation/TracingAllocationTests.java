package io.seqlink.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.spring.observation.ChannelObservations;
import io.seqlink.topology.VerifierSettings;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Tracing is free when off: on the emulated backend, over 50,000 frames, neither the producer thread nor the
 * listener's thread allocates per frame with observation off or on but unsampled; at 100% every frame carries a
 * context and makes a publish and a process span. A device listener's stage that asks for every frame's observation
 * ({@link ChannelObservations#startProcess}) allocates nothing per frame either while its frames carry no context, and
 * gets one observation per frame when they all do. (No timing is asserted: {@link TracingCost} measures that.)
 */
class TracingAllocationTests {

    private static final long FRAMES = 50_000;

    @Test
    void offAndUnsampledAllocateNothingPerFrame() throws Exception {
        for (double p : new double[] {-1, 0}) {
            TracingCost.Row r = TracingCost.run(BackendSelection.EMULATED, p, 20_000, FRAMES, 64, 256);
            assertThat(r.producerBytesPerFrame()).as("producer B/frame, %s", r).isLessThan(0.5);
            assertThat(r.listenerBytesPerFrame()).as("listener B/frame, %s", r).isLessThan(0.5);
            assertThat(r.framesWithContext()).as(r.mode()).isZero();
            assertThat(r.spans()).as(r.mode()).isZero();
        }
    }

    @Test
    void everySampledFrameCarriesItsContextAndMakesAListenerSpan() throws Exception {
        TracingCost.Row r = TracingCost.run(BackendSelection.EMULATED, 1.0, 2_000, 5_000, 64, 256);
        assertThat(r.framesWithContext()).isEqualTo(5_000);
        assertThat(r.listenerSpans()).isEqualTo(5_000);
        assertThat(r.spans()).as("a publish and a process span per frame").isEqualTo(10_000);
    }

    @Test
    void aDeviceStageAskingEveryFrameForItsObservationAllocatesNothingWhileNoFrameCarriesATrace() throws Exception {
        for (double p : new double[] {-1, 0}) {
            DeviceRun r = deviceRun(p, 20_000, FRAMES);
            // per frame, every call would allocate; a call that allocated once (about 80 KB, at a random frame, seen in 2
            // of 5 runs on an idle 2-core machine with nothing in the call allocating) is the JVM's, not the stage's
            assertThat(r.allocatingCalls()).as("device listener calls that allocated (%s B/frame over all), probability %s",
                    r.listenerBytesPerFrame(), p).isLessThanOrEqualTo(1);
            assertThat(r.observations()).as("probability %s", p).isZero();
        }
        DeviceRun all = deviceRun(1.0, 2_000, 5_000);
        assertThat(all.observations()).as("an observation for every frame the device listener took").isEqualTo(7_000);
        assertThat(all.spans()).as("a publish and a process span per frame").isEqualTo(14_000);
    }

    record DeviceRun(double listenerBytesPerFrame, long allocatingCalls, long observations, long spans) {
    }

    /**
     * One channel from device 0 to a device listener on device 1 driven flat out through {@code offer}; the listener
     * asks {@link ChannelObservations#startProcess} for every frame of every round (and stops what it gets at once) and
     * counts what its calls allocate. {@code probability} below 0: not observed.
     */
    private static DeviceRun deviceRun(double probability, long warmup, long frames) throws InterruptedException {
        AtomicLong spans = new AtomicLong();
        try (Tracing tracing = Tracing.newBuilder().traceId128Bit(true).propagationFactory(new W3CPropagation())
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build()).addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                        spans.incrementAndGet();
                        return false;
                    }
                }).build();
                SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                        .verifier(VerifierSettings.defaults().withEnabled(false))
                        .launcher(new LauncherSettings(IdleStrategyKind.BACKOFF, 256, Duration.ofMillis(100))).open()) {
            ObservationRegistry registry = TracingCost.tracingRegistry(tracing);
            ChannelObservations observations = new ChannelObservations(registry,
                    Map.of("device-stage", new ChannelObservations.Settings(probability >= 0, Math.max(0, probability))), null,
                    null);
            PublishChannel raw = rt.openChannel(ChannelSpec.builder("device-stage").producer(0).consumers(1).slots(256)
                    .slotBytes(64).build());
            PublishChannel channel = observations.observe(raw);
            Stage stage = new Stage(observations, warmup + 1, warmup + frames);
            ConsumerPort port = raw.consumer(1).subscribeDevice(stage);
            rt.start();
            ByteBuffer src = ByteBuffer.allocateDirect(8).order(ByteOrder.LITTLE_ENDIAN);
            for (long id = 1; id <= warmup + frames; ) {
                src.putLong(0, id);
                if (channel.offer(src) > 0) {
                    id++;
                } else {
                    Thread.onSpinWait();
                }
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (port.acknowledged() < warmup + frames || !stage.done) {
                assertThat(System.nanoTime() - deadline).as("acknowledged: %s", port.snapshot()).isNegative();
                LockSupport.parkNanos(1_000_000);
            }
            assertThat(stage.measuredFrames).as("frames measured").isGreaterThan(frames / 2);
            return new DeviceRun((double) stage.allocated / stage.measuredFrames, stage.allocatingCalls, stage.started, spans.get());
        }
    }

    /**
     * Asks for each frame's observation, as a device stage does; the sequence is the frame's id (one producer). Counts
     * what each call allocates on its own thread (a device listener may move to another thread between calls, when it
     * holds the device's loop up), over the calls whose frames are all measured ones.
     */
    private static final class Stage implements DeviceFrameHandler {
        private final ChannelObservations observations;
        private final long mark;
        private final long last;
        private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        volatile long allocated;
        volatile long measuredFrames;
        volatile long allocatingCalls;
        volatile long started;
        volatile boolean done;

        Stage(ChannelObservations observations, long mark, long last) {
            this.observations = observations;
            this.mark = mark;
            this.last = last;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            long before = threads.getCurrentThreadAllocatedBytes();
            long n = started;
            for (long s = frames.first(); s <= frames.last(); s++) {
                Observation o = observations.startProcess(frames, s);
                if (o != null) {
                    o.stop();
                    n++;
                }
            }
            long after = threads.getCurrentThreadAllocatedBytes();
            started = n;
            if (frames.first() >= mark) {
                allocated += after - before;
                allocatingCalls += after > before ? 1 : 0;
                measuredFrames += frames.last() - frames.first() + 1;
            }
            if (frames.last() >= last) {
                done = true;
            }
        }
    }
}

package io.seqlink.autoconfigure.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.listener.ListenerContext;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** @ChannelListener methods, driven by the launcher on the emulated backend. */
class ChannelListenerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues("seqlink.verify.enabled=false", "seqlink.listener.retry.initial-backoff=1ms",
                    "seqlink.listener.retry.max-backoff=4ms");

    @Test
    void frameListenerReceivesEveryPublishedFrameInOrder() {
        runner.withBean(FrameRecorder.class).run(context -> {
            publish(context, 1_000);
            awaitDrained(context);
            assertThat(context.getBean(FrameRecorder.class).values).containsExactlyElementsOf(range(1_000));
        });
    }

    @Test
    void batchListenerReceivesEveryFrameInOrderInRoundsOfAtMostTheLauncherBatch() {
        runner.withPropertyValues("seqlink.launcher.batch-size=8").withBean(BatchRecorder.class).run(context -> {
            publish(context, 500);
            awaitDrained(context);
            BatchRecorder recorder = context.getBean(BatchRecorder.class);
            assertThat(recorder.values).containsExactlyElementsOf(range(500));
            assertThat(recorder.largestBatch.get()).isBetween(1, 8);
        });
    }

    @Test
    void contextParameterTellsListenerChannelDeviceTransportAndAttempt() {
        runner.withBean("contextRecorder", ContextRecorder.class).run(context -> {
            publish(context, 3);
            awaitDrained(context);
            ContextRecorder recorder = context.getBean(ContextRecorder.class);
            assertThat(recorder.seen).containsExactly("contextRecorder.onFrame frames 0->1 PEER_ATOMIC attempt 1",
                    "contextRecorder.onFrame frames 0->1 PEER_ATOMIC attempt 1",
                    "contextRecorder.onFrame frames 0->1 PEER_ATOMIC attempt 1");
        });
    }

    @Test
    void listenerWithoutDeviceRunsOnEveryConsumerDevice() {
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2")
                .withBean(PerDeviceRecorder.class).run(context -> {
                    publish(context, 200);
                    awaitDrained(context);
                    PerDeviceRecorder recorder = context.getBean(PerDeviceRecorder.class);
                    assertThat(recorder.byDevice.keySet()).containsExactlyInAnyOrder(1, 2);
                    assertThat(recorder.byDevice.get(1)).containsExactlyElementsOf(range(200));
                    assertThat(recorder.byDevice.get(2)).containsExactlyElementsOf(range(200));
                });
    }

    @Test
    void hostListenersChannelsOpenWithTheProducerPushingTheirFramesToHostMemory() {
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2")
                .withBean(PerDeviceRecorder.class).run(context -> {
                    PublishChannel frames = context.getBean(SeqlinkRuntime.class).channel("frames").orElseThrow();
                    assertThat(frames.spec().hostListeners()).as("every consumer: the listener names no device").containsExactly(1, 2);
                    publish(context, 300);
                    awaitDrained(context);
                    PerDeviceRecorder recorder = context.getBean(PerDeviceRecorder.class);
                    assertThat(recorder.byDevice.get(1)).containsExactlyElementsOf(range(300));
                    assertThat(recorder.byDevice.get(2)).containsExactlyElementsOf(range(300));
                    for (int d : new int[] {1, 2}) {
                        assertThat(frames.consumer(d).snapshot().deviceReads()).as("no consume step ran on device %d", d).isZero();
                    }
                });
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2")
                .withBean("twoDeviceListeners", TwoDeviceListeners.class).run(context -> assertThat(context.getBean(SeqlinkRuntime.class)
                        .channel("frames").orElseThrow().spec().hostListeners()).containsExactly(1, 2));
        runner.withBean(DeviceListener.class).run(context -> assertThat(context.getBean(SeqlinkRuntime.class).channel("frames")
                .orElseThrow().spec().hostListeners()).as("a device listener's consumer is not pushed to").isEmpty());
    }

    @Test
    void deviceAttributeBindsEachListenerToItsOwnConsumer() {
        runner.withPropertyValues("seqlink.emulated.device-count=3", "seqlink.channels.frames.consumers=1,2")
                .withBean("twoDeviceListeners", TwoDeviceListeners.class).run(context -> {
                    publish(context, 100);
                    awaitDrained(context);
                    TwoDeviceListeners l = context.getBean(TwoDeviceListeners.class);
                    assertThat(l.one).containsExactlyElementsOf(range(100));
                    assertThat(l.two).containsExactlyElementsOf(range(100));
                    ChannelListenerEndpointRegistry registry = context.getBean(ChannelListenerEndpointRegistry.class);
                    assertThat(registry.listenerId("frames", 1)).contains("twoDeviceListeners.onDeviceOne");
                    assertThat(registry.listenerId("frames", 2)).contains("two");
                });
    }

    @Test
    void channelNamePlaceholderIsResolved() {
        runner.withPropertyValues("app.channel=frames").withBean(PlaceholderListener.class).run(context -> {
            publish(context, 10);
            awaitDrained(context);
            assertThat(context.getBean(PlaceholderListener.class).count.get()).isEqualTo(10);
        });
    }

    @Test
    void failingListenerIsRetriedWithBackoffAndEveryFrameArrivesInOrder() {
        runner.withBean(FlakyListener.class).run(context -> {
            publish(context, 50);
            awaitDrained(context);
            FlakyListener l = context.getBean(FlakyListener.class);
            assertThat(l.handled).containsExactlyElementsOf(range(50));
            assertThat(l.attemptsOfFrame7).containsExactly(1, 2, 3);
            ConsumerSnapshot c = snapshot(context);
            assertThat(c.retries()).isEqualTo(2);
            assertThat(c.deadLettered()).isZero();
        });
    }

    @Test
    void frameFailingEveryAttemptGoesToTheErrorHandlerAndConsumptionGoesOn() {
        DeadLetters deadLetters = new DeadLetters();
        runner.withBean(FrameErrorHandler.class, () -> deadLetters).withBean(PoisonListener.class).run(context -> {
            publish(context, 40);
            awaitDrained(context);
            PoisonListener l = context.getBean(PoisonListener.class);
            assertThat(deadLetters.sequences).containsExactly(13L, 26L, 39L);
            assertThat(deadLetters.payloads).containsExactly(13L, 26L, 39L);
            List<Long> all = new ArrayList<>(l.handled);
            all.addAll(deadLetters.sequences);
            assertThat(all).as("every frame handled or dead-lettered, none lost").containsExactlyInAnyOrderElementsOf(range(40));
            assertThat(snapshot(context).deadLettered()).isEqualTo(3);
        });
    }

    @Test
    void errorHandlerThatThrowsHoldsTheConsumerAtTheFrameUntilItIsTaken() {
        AtomicInteger refusals = new AtomicInteger();
        List<Long> dead = new CopyOnWriteArrayList<>();
        FrameErrorHandler refusingTwice = (frame, cause) -> {
            if (refusals.getAndIncrement() < 2) {
                throw new IllegalStateException("dead-letter store unavailable");
            }
            dead.add(frame.sequence());
        };
        runner.withPropertyValues("seqlink.listener.retry.max-attempts=1").withBean(FrameErrorHandler.class, () -> refusingTwice)
                .withBean(PoisonListener.class).run(context -> {
                    publish(context, 20);
                    awaitDrained(context);
                    assertThat(dead).containsExactly(13L);
                    assertThat(context.getBean(PoisonListener.class).handled).hasSize(19).doesNotContain(13L);
                    assertThat(refusals.get()).isEqualTo(3);
                });
    }

    @Test
    void assertionErrorInAListenerIsRetriedLikeAnExceptionAndDoesNotStopTheConsumer() {
        DeadLetters deadLetters = new DeadLetters();
        runner.withBean(FrameErrorHandler.class, () -> deadLetters).withBean(AssertingListener.class).run(context -> {
            publish(context, 10);
            awaitDrained(context);
            assertThat(deadLetters.sequences).containsExactly(3L);
            assertThat(deadLetters.causes.get(0)).hasMessageContaining("AssertingListener.onFrame").hasCauseInstanceOf(AssertionError.class);
            assertThat(context.getBean(AssertingListener.class).handled).hasSize(9);
        });
    }

    @Test
    void frameKeptPastItsCallCannotBeUsed() {
        runner.withBean(KeepingListener.class).run(context -> {
            publish(context, 2);
            awaitDrained(context);
            KeepingListener l = context.getBean(KeepingListener.class);
            assertThat(l.kept.get()).isNotNull();
            assertThatIllegalStateException().isThrownBy(() -> l.kept.get().payload()).withMessageContaining("flyweight");
            assertThatIllegalStateException().isThrownBy(() -> l.kept.get().sequence());
            assertThatIllegalStateException().isThrownBy(() -> l.keptContext.get().attempt());
        });
    }

    @Test
    void batchKeptPastItsCallCannotBeUsed() {
        runner.withBean(KeepingBatchListener.class).run(context -> {
            publish(context, 2);
            awaitDrained(context);
            KeepingBatchListener l = context.getBean(KeepingBatchListener.class);
            assertThatIllegalStateException().isThrownBy(() -> l.kept.get().size());
            assertThatIllegalStateException().isThrownBy(() -> l.keptFrame.get().length());
        });
    }

    @Test
    void deviceListenerEnqueuesWorkOnEveryRoundInOrder() {
        runner.withBean(DeviceListener.class).run(context -> {
            publish(context, 300);
            awaitDrained(context);
            DeviceListener l = context.getBean(DeviceListener.class);
            long expectedFirst = 1;
            for (long[] round : l.rounds) {
                assertThat(round[0]).isEqualTo(expectedFirst);
                expectedFirst = round[1] + 1;
            }
            assertThat(expectedFirst - 1).isEqualTo(300);
        });
    }

    @Test
    void deviceListenerTakingArmedRoundsAndAcknowledgingInItsKernelGetsEveryFrameAndTheChannelNoAckStep() {
        runner.withBean(AckingDeviceListener.class).run(context -> {
            for (int i = 1; i <= 200; i++) {
                TestChannels.publishLong(context.getBean("frames", PublishChannel.class), i);
                if (i % 20 == 0) { // let the loop catch up, so it arms the next frame
                    awaitDrained(context);
                }
            }
            awaitDrained(context);
            AckingDeviceListener l = context.getBean(AckingDeviceListener.class);
            assertThat(l.acknowledgements.get()).as("the listener's kernel acknowledged every round it took").isPositive();
            assertThat(snapshot(context).acknowledged()).isEqualTo(200);
            assertThat(snapshot(context).delivered()).isEqualTo(200);
        });
    }

    @Test
    void deviceListenerWhoseKernelIsTheWholeRoundGetsEveryFrameWithoutTheChannelsConsumeStep() {
        runner.withBean(RoundKernelListener.class).run(context -> {
            for (int i = 1; i <= 200; i++) {
                TestChannels.publishLong(context.getBean("frames", PublishChannel.class), i);
                if (i % 20 == 0) { // let the loop catch up, so it arms the next frame
                    awaitDrained(context);
                }
            }
            awaitDrained(context);
            RoundKernelListener l = context.getBean(RoundKernelListener.class);
            assertThat(l.taken.get()).as("every frame taken by the listener's kernel").isEqualTo(200);
            ConsumerSnapshot c = snapshot(context);
            assertThat(c.acknowledged()).isEqualTo(200);
            assertThat(c.delivered()).isEqualTo(200);
            assertThat(c.deviceReads()).as("one device read per round, the kernel's: no consume step besides: %s", c)
                    .isEqualTo(l.rounds.get());
        });
    }

    @Test
    void deviceListenerThatSaysItAcknowledgesInItsKernelGetsNoAckStepFromTheChannel() {
        // nothing acknowledges the frames: the close's drain would wait its whole timeout for them (its outcome is not checked)
        runner.withBean(SilentDeviceListener.class).withPropertyValues("seqlink.shutdown.drain-timeout=200ms").run(context -> {
            publish(context, 3);
            ConsumerPort port = context.getBean("frames", PublishChannel.class).consumer(1);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!(snapshot(context).delivered() == 3 && port.stream().completed()) && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(1_000_000);
            }
            assertThat(snapshot(context).delivered()).as("delivered: %s", snapshot(context)).isEqualTo(3);
            assertThat(port.stream().completed()).as("everything enqueued ran").isTrue();
            assertThat(snapshot(context).acknowledged()).as("its kernels acknowledge nothing, and the channel added no ack").isZero();
        });
    }

    @Test
    void armedRoundsOrAcknowledgesInKernelOnAFrameListenerFailsStartupNamingTheAttribute() {
        runner.withBean(MisplacedDeviceOptions.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("armedRounds is set on a listener that takes "
                    + "no DeviceFrames").hasMessageContaining("remove it, or take a DeviceFrames");
        });
    }

    @Test
    void failedChannelIsReportedAtShutdownWithWhatItLeftUndelivered() {
        AtomicReference<ChannelListenerEndpointRegistry> registry = new AtomicReference<>();
        runner.run(context -> {
            registry.set(context.getBean(ChannelListenerEndpointRegistry.class));
            publish(context, 3); // nobody listens
            io.seqlink.channel.lifecycle.Channels.fail(context.getBean("frames", PublishChannel.class),
                    new IllegalStateException("device 0 reported a sticky error"), 0);
        });
        assertThat(registry.get().drainReports()).singleElement().satisfies(report -> {
            assertThat(report.channel()).isEqualTo("frames");
            assertThat(report.published()).isEqualTo(3);
            assertThat(report.undelivered()).containsEntry(1, 3L);
        });
    }

    // ---- helpers ----------------------------------------------------------------------------

    static void publish(AssertableApplicationContext context, int n) {
        PublishChannel ch = context.getBean("frames", PublishChannel.class);
        for (int i = 1; i <= n; i++) {
            TestChannels.publishLong(ch, i);
        }
    }

    static void awaitDrained(AssertableApplicationContext context) {
        assertThat(context.getBean(SeqlinkRuntime.class).launcher().awaitDrained(Duration.ofSeconds(20)))
                .as("every consumer acknowledged everything").isTrue();
    }

    static ConsumerSnapshot snapshot(AssertableApplicationContext context) {
        return context.getBean("frames", PublishChannel.class).snapshot().consumers().get(0);
    }

    static List<Long> range(int n) {
        List<Long> l = new ArrayList<>(n);
        for (long i = 1; i <= n; i++) {
            l.add(i);
        }
        return l;
    }

    static class FrameRecorder {
        final List<Long> values = new CopyOnWriteArrayList<>();

        @ChannelListener(channel = "frames")
        void onFrame(Frame frame) {
            assertThat(frame.sequence()).isEqualTo(values.size() + 1);
            values.add(TestChannels.readLong(frame.payload()));
        }
    }

    static class BatchRecorder {
        final List<Long> values = new CopyOnWriteArrayList<>();
        final AtomicInteger largestBatch = new AtomicInteger();

        @ChannelListener("frames")
        void onBatch(List<Frame> frames, ListenerContext context) {
            largestBatch.accumulateAndGet(frames.size(), Math::max);
            for (Frame f : frames) {
                values.add(TestChannels.readLong(f.payload()));
            }
        }
    }

    static class ContextRecorder {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrame(ListenerContext context, Frame frame) {
            seen.add(context.listenerId() + " " + context.channel() + " " + context.producer() + "->" + context.device() + " "
                    + context.transport() + " attempt " + context.attempt());
        }
    }

    static class PerDeviceRecorder {
        final Map<Integer, List<Long>> byDevice = new ConcurrentHashMap<>();

        @ChannelListener("frames")
        void onFrame(Frame frame, ListenerContext context) {
            assertThat(context.device()).isEqualTo(frame.consumerDevice());
            byDevice.computeIfAbsent(context.device(), d -> new CopyOnWriteArrayList<>())
                    .add(TestChannels.readLong(frame.payload()));
        }
    }

    static class TwoDeviceListeners {
        final List<Long> one = new CopyOnWriteArrayList<>();
        final List<Long> two = new CopyOnWriteArrayList<>();

        @ChannelListener(channel = "frames", device = 1)
        void onDeviceOne(Frame frame) {
            one.add(frame.sequence());
        }

        @ChannelListener(channel = "frames", device = 2, id = "two")
        void onDeviceTwo(Frame frame) {
            two.add(frame.sequence());
        }
    }

    static class PlaceholderListener {
        final AtomicInteger count = new AtomicInteger();

        @ChannelListener("${app.channel}")
        void onFrame(Frame frame) {
            count.incrementAndGet();
        }
    }

    static class FlakyListener {
        final List<Long> handled = new CopyOnWriteArrayList<>();
        final List<Integer> attemptsOfFrame7 = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrame(Frame frame) {
            if (frame.sequence() == 7) {
                attemptsOfFrame7.add(frame.attempt());
                if (frame.attempt() < 3) {
                    throw new IllegalStateException("transient failure " + frame.attempt());
                }
            }
            handled.add(frame.sequence());
        }
    }

    static class PoisonListener {
        final List<Long> handled = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrame(Frame frame) throws Exception {
            if (frame.sequence() % 13 == 0) {
                throw new Exception("poison frame " + frame.sequence());
            }
            handled.add(frame.sequence());
        }
    }

    static class AssertingListener {
        final List<Long> handled = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrame(Frame frame) {
            if (frame.sequence() == 3) {
                throw new AssertionError("frame 3 is not what I expected");
            }
            handled.add(frame.sequence());
        }
    }

    static class DeadLetters implements FrameErrorHandler {
        final List<Long> sequences = new CopyOnWriteArrayList<>();
        final List<Long> payloads = new CopyOnWriteArrayList<>();
        final List<Exception> causes = new CopyOnWriteArrayList<>();

        @Override
        public void onFailedFrame(Frame frame, Exception cause) {
            sequences.add(frame.sequence());
            payloads.add(TestChannels.readLong(frame.payload()));
            causes.add(cause);
        }
    }

    static class KeepingListener {
        final AtomicReference<Frame> kept = new AtomicReference<>();
        final AtomicReference<ListenerContext> keptContext = new AtomicReference<>();

        @ChannelListener("frames")
        void onFrame(Frame frame, ListenerContext context) {
            kept.set(frame);
            keptContext.set(context);
        }
    }

    static class KeepingBatchListener {
        final AtomicReference<List<Frame>> kept = new AtomicReference<>();
        final AtomicReference<Frame> keptFrame = new AtomicReference<>();

        @ChannelListener("frames")
        void onBatch(List<Frame> frames) {
            kept.set(frames);
            keptFrame.set(frames.get(0));
        }
    }

    /**
     * A device listener with both device options: its one kernel per round (a Java twin: this runs on the emulated
     * backend) acknowledges what the round's descriptor says was taken, as {@code acknowledge_taken_at_end} does.
     */
    static class AckingDeviceListener {
        final AtomicInteger acknowledgements = new AtomicInteger();
        private final KernelModule module = KernelModule.builder("spring-test", KernelImage.ofResource("no/such/image.fatbin"))
                .emulated("acknowledge_round", call -> {
                    acknowledgements.incrementAndGet();
                    call.acknowledgeTaken(0, 1);
                }).build();
        private final Map<DeviceStream, KernelCall> kernels = new ConcurrentHashMap<>();

        @ChannelListener(channel = "frames", armedRounds = true, acknowledgesInKernel = true)
        void onFrames(DeviceFrames frames) {
            kernels.computeIfAbsent(frames.stream(), s -> s.bindKernel(module, "acknowledge_round", KernelParam.POINTER,
                    KernelParam.POINTER)).pointer(0, frames.descriptor(), 0).pointer(1, frames.acknowledgement(), 0).launch(1, 1);
        }
    }

    /** A device listener with all three device options: its one kernel (a Java twin) is the round. */
    static class RoundKernelListener {
        final AtomicInteger taken = new AtomicInteger();
        final AtomicInteger rounds = new AtomicInteger();
        private final KernelModule module = KernelModule.builder("spring-test", KernelImage.ofResource("no/such/image.fatbin"))
                .emulated("round", call -> {
                    long end = call.takeRound(0, call.u64(1), call.u64(2), call.u64(3), call.u64(4) != 0);
                    if (end >= call.u64(1)) {
                        taken.addAndGet((int) (end - call.u64(1) + 1));
                        rounds.incrementAndGet();
                    }
                    call.endRound(0);
                }).build();
        private final Map<DeviceStream, KernelCall> kernels = new ConcurrentHashMap<>();

        @ChannelListener(channel = "frames", armedRounds = true, consumesInKernel = true)
        void onFrames(DeviceFrames frames) {
            kernels.computeIfAbsent(frames.stream(), s -> s.bindKernel(module, "round", KernelParam.CONSUME_HANDLES, KernelParam.U64,
                    KernelParam.U64, KernelParam.U64, KernelParam.U64).consumeHandles(0, frames.consumeHandles()))
                    .u64(1, frames.first()).u64(2, frames.last()).u64(3, frames.round()).u64(4, frames.armed() ? 1 : 0)
                    .launch(1, 1);
        }
    }

    static class SilentDeviceListener {
        @ChannelListener(channel = "frames", acknowledgesInKernel = true)
        void onFrames(DeviceFrames frames) {
            // enqueues nothing: a listener breaking its word, to show the channel keeps off the ack
        }
    }

    static class MisplacedDeviceOptions {
        @ChannelListener(channel = "frames", armedRounds = true)
        void onFrame(Frame frame) {
        }
    }

    static class DeviceListener {
        final List<long[]> rounds = new CopyOnWriteArrayList<>();

        @ChannelListener("frames")
        void onFrames(DeviceFrames frames, ListenerContext context) {
            assertThat(context.transport()).isEqualTo(Transport.PEER_ATOMIC);
            rounds.add(new long[] {frames.first(), frames.last()});
        }
    }
}

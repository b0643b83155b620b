package io.seqlink.launcher;

import static io.seqlink.launcher.DozeTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A dozing device loop is woken by the publish itself, whoever publishes: the watchdog's safety-net look and the
 * loop's full pass are set an hour apart here, so a frame that did not ring its channel's bell would wait an hour,
 * and each test waits 30 s at most. Producers: a host thread ({@code offer}), a receiver-like thread (claims, commits,
 * then one {@code publish()}, as the UCX bridge's intake does), a host listener publishing into the next channel
 * from its device loop, and a device listener doing so with {@code commitDevice} (a user kernel's frame). The race: a
 * publish racing the loop's decision to doze never leaves a frame unseen. And what the doze must keep: stall
 * detection, and a drain that accounts for every frame.
 */
class DozeWakeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    /** Doze after 20 ms of quiet; no look, no full pass within the tests' deadlines. */
    private static final Doze.Times NO_SAFETY_NET = new Doze.Times(TimeUnit.MILLISECONDS.toNanos(20), HOUR, HOUR);

    @Test
    void aHostThreadsOfferWakesTheDozingLoops() {
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(NO_SAFETY_NET)) {
            PublishChannel ch = channel(rt, "frames", 0, 1, 2);
            AtomicLong got = listen(ch, launcher);
            launcher.start();
            for (int round = 1; round <= 3; round++) {
                assertThat(await(launcher::loopsDozing)).as("round %d: the loops doze", round).isTrue();
                assertThat(ch.offer(new byte[8], 0, 8)).isPositive();
                long want = 2L * round;
                assertThat(await(() -> got.get() == want)).as("round %d: the frame reached both dozing consumers", round).isTrue();
            }
        }
    }

    @Test
    void aReceiverThreadsClaimsAndOnePublishWakeTheDozingLoop() throws InterruptedException {
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(NO_SAFETY_NET)) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("landed").producer(0).consumers(1).slots(16).slotBytes(64)
                    .maxPublishBatch(4).build());
            AtomicLong got = listen(ch, launcher);
            launcher.start();
            assertThat(await(launcher::loopsDozing)).as("the loop dozes").isTrue();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread receiver = new Thread(() -> {
                try {
                    for (int i = 0; i < 3; i++) { // claim, write, commit: nothing published yet
                        assertThat(ch.tryClaim()).isPositive();
                        ch.buffer().putLong(0, i);
                        ch.commit(8);
                    }
                    ch.publish();
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "ucx-receiver-like");
            receiver.start();
            receiver.join(DEADLINE.toMillis());
            assertThat(failed.get()).isNull();
            assertThat(await(() -> got.get() == 3)).as("the three frames of one publish reached the dozing consumer").isTrue();
        }
    }

    @Test
    void aHostListenerPublishingIntoTheNextChannelWakesItsDozingLoop() {
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(NO_SAFETY_NET)) {
            PublishChannel a = channel(rt, "a", 0, 1);
            PublishChannel b = channel(rt, "b", 1, 2);
            a.consumer(1).subscribe(f -> b.offer(new byte[8], 0, 8));
            AtomicLong got = listen(b, launcher);
            launcher.register(a.consumer(1));
            launcher.start();
            for (int round = 1; round <= 3; round++) {
                assertThat(await(launcher::loopsDozing)).as("round %d: both loops doze", round).isTrue();
                assertThat(a.offer(new byte[8], 0, 8)).isPositive();
                long want = round;
                assertThat(await(() -> got.get() == want)).as("round %d: the chained frame reached device 2", round).isTrue();
            }
        }
    }

    @Test
    void aDeviceListenerCommittingADeviceWrittenFrameWakesItsDozingLoop() {
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(NO_SAFETY_NET)) {
            PublishChannel a = channel(rt, "a", 0, 1);
            PublishChannel b = channel(rt, "b", 1, 2);
            DeviceFrameHandler chain = frames -> {
                for (long s = frames.first(); s <= frames.last(); s++) {
                    if (b.claim() > 0) { // the frame's bytes would be written on device 1 by a kernel on b's stream
                        b.commitDevice(8);
                        b.publish();
                    }
                }
            };
            a.consumer(1).subscribeDevice(chain);
            AtomicLong got = listen(b, launcher);
            launcher.register(a.consumer(1));
            launcher.start();
            for (int round = 1; round <= 3; round++) {
                assertThat(await(launcher::loopsDozing)).as("round %d: both loops doze", round).isTrue();
                assertThat(a.offer(new byte[8], 0, 8)).isPositive();
                long want = round;
                assertThat(await(() -> got.get() == want)).as("round %d: the device-committed frame reached device 2", round)
                        .isTrue();
            }
        }
    }

    /**
     * The loops doze after every pass that found nothing (no quiet period), so each frame is published while its
     * consumers' loops are arming their bells, looking, or parked: a publish between the look and the park is the
     * race. Every frame must reach both consumers; one unseen would wait out the deadline.
     */
    @Test
    void aPublishRacingTheDecisionToDozeIsNeverLeftUnseen() {
        Doze.Times dozeAtOnce = new Doze.Times(0, HOUR, HOUR);
        int frames = Integer.getInteger("seqlink.test.dozeRaceFrames", 3_000);
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(dozeAtOnce)) {
            PublishChannel ch = channel(rt, "frames", 0, 1, 2);
            AtomicLong got = listen(ch, launcher);
            launcher.start();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 1; i <= frames; i++) {
                long spin = random.nextInt(30_000); // up to 30 µs: lands on every step of the loop's doze
                for (long t0 = System.nanoTime(); System.nanoTime() - t0 < spin; ) {
                    Thread.onSpinWait();
                }
                assertThat(ch.offer(new byte[8], 0, 8)).isPositive();
                long want = 2L * i;
                assertThat(await(() -> got.get() == want)).as("frame %d of %d reached both consumers", i, frames).isTrue();
            }
        }
    }

    /**
     * Stall detection is kept: a frame woke the dozing loop, its listener then stops acknowledging (it blocks), and
     * the watchdog, asleep while every loop dozed, reports the consumer stalled within its stall timeout.
     */
    @Test
    void aConsumerThatStopsAcknowledgingAfterADozeIsReportedStalled() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        try (SeqlinkRuntime rt = runtime(); Launcher launcher = launcher(NO_SAFETY_NET)) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("stalls").producer(0).consumers(1).slots(16).slotBytes(64)
                    .stallTimeout(Duration.ofMillis(200)).build());
            ConsumerPort port = ch.consumer(1).subscribe(f -> release.await());
            launcher.register(port);
            launcher.start();
            assertThat(await(launcher::loopsDozing)).as("the loop dozes").isTrue();
            assertThat(port.stalled()).isFalse();
            assertThat(ch.offer(new byte[8], 0, 8)).isPositive();
            assertThat(await(port::stalled)).as("the blocked consumer is reported stalled").isTrue();
            release.countDown();
            assertThat(await(() -> port.acknowledged() == 1 && !port.stalled())).as("acknowledged once released").isTrue();
        } finally {
            release.countDown();
        }
    }

    /** A burst published into dozing loops, then the channels closed at once: the drain accounts for every frame. */
    @Test
    void aBurstIntoDozingLoopsClosedAtOnceDrainsEveryFrame() {
        try (Launcher launcher = launcher(NO_SAFETY_NET); SeqlinkRuntime rt = runtime()) { // the runtime closes first
            PublishChannel ch = channel(rt, "burst", 0, 1, 2);
            AtomicLong got = listen(ch, launcher);
            launcher.start();
            assertThat(await(launcher::loopsDozing)).as("the loops doze").isTrue();
            int sent = 0;
            for (int i = 0; i < 12; i++) { // within the 16 slots: nothing refused for want of a slot
                assertThat(ch.offer(new byte[8], 0, 8)).isPositive();
                sent++;
            }
            List<DrainReport> reports = rt.drainAndCloseChannels(DEADLINE);
            assertThat(reports).singleElement().satisfies(r -> {
                assertThat(r.published()).isEqualTo(12);
                assertThat(r.totalUndelivered()).isZero();
                assertThat(r.timedOut()).isFalse();
            });
            assertThat(got.get()).isEqualTo(2L * sent);
        }
    }

    private static SeqlinkRuntime runtime() {
        // the runtime's own launcher is never started: the test's launcher drives the ports
        return SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(3))
                .verifier(VerifierSettings.defaults().withEnabled(false)).open();
    }

    private static Launcher launcher(Doze.Times times) {
        return new Launcher(new LauncherSettings(IdleStrategyKind.BACKOFF, 32, Duration.ofMillis(20)), times);
    }

    private static PublishChannel channel(SeqlinkRuntime rt, String name, int producer, Integer... consumers) {
        return rt.openChannel(ChannelSpec.builder(name).producer(producer).consumers(consumers).slots(16).slotBytes(64).build());
    }

    /** Subscribes a counting listener on every consumer of {@code ch} and registers them with {@code launcher}. */
    private static AtomicLong listen(PublishChannel ch, Launcher launcher) {
        AtomicLong got = new AtomicLong();
        for (int d : ch.consumerDevices()) {
            ConsumerPort p = ch.consumer(d).subscribe(f -> got.incrementAndGet());
            launcher.register(p);
        }
        return got;
    }
}

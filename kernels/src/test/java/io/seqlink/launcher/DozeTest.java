package io.seqlink.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The default idle strategy dozes: a device loop whose consumers have been caught up for a while stops
 * looking every few microseconds, and the watchdog wakes it when a frame waits. Idle, the loops pass over
 * their ports a handful of times a second instead of thousands; a frame published after the quiet period,
 * on any channel and any consumer of it, is still delivered; a stop is not held up by a doze.
 */
class DozeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void anIdleLoopDozesAndPassesOverItsPortsRarely() {
        try (SeqlinkRuntime rt = runtime(IdleStrategyKind.BACKOFF)) {
            PublishChannel ch = channel(rt, "frames", 0, 1, 2);
            List<Long> got = listen(ch);
            rt.start();
            assertThat(ch.offer(new byte[8], 0, 8)).isPositive();
            assertThat(await(() -> got.size() == 2)).as("the frame reached both consumers").isTrue();
            assertThat(await(() -> rt.launcher().loopsDozing())).as("the loops doze once caught up").isTrue();
            long before = rt.launcher().passes(1);
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
            // awake and idle, a loop passes thousands of times a second; dozing, once per full pass (10 s) or on a
            // spurious wake-up. A busy machine only makes passes fewer.
            assertThat(rt.launcher().passes(1) - before).as("passes in 2 s of doze").isLessThanOrEqualTo(5);
        }
    }

    @Test
    void aFramePublishedWhileTheLoopsDozeIsDeliveredToEveryConsumerOfEveryChannel() {
        try (SeqlinkRuntime rt = runtime(IdleStrategyKind.BACKOFF)) {
            PublishChannel a = channel(rt, "a", 0, 1, 2, 3);
            PublishChannel b = channel(rt, "b", 1, 2, 3);
            List<Long> gotA = listen(a);
            List<Long> gotB = listen(b);
            rt.start();
            for (int round = 1; round <= 3; round++) {
                assertThat(await(() -> rt.launcher().loopsDozing())).as("round %d: every loop dozes", round).isTrue();
                assertThat(a.offer(new byte[8], 0, 8)).isPositive();
                int wantA = 3 * round;
                assertThat(await(() -> gotA.size() == wantA)).as("round %d: a's frame on its 3 consumers", round).isTrue();
                assertThat(await(() -> rt.launcher().loopsDozing())).as("round %d: dozing again", round).isTrue();
                assertThat(b.offer(new byte[8], 0, 8)).isPositive();
                int wantB = 2 * round;
                assertThat(await(() -> gotB.size() == wantB)).as("round %d: b's frame on its 2 consumers", round).isTrue();
            }
        }
    }

    @Test
    void aLoopThatDoesNotDozeKeepsPassing() {
        try (SeqlinkRuntime rt = runtime(IdleStrategyKind.LOW_LATENCY)) {
            PublishChannel ch = channel(rt, "frames", 0, 1);
            listen(ch);
            rt.start();
            long before = rt.launcher().passes(1);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            assertThat(rt.launcher().loopsDozing()).isFalse();
            assertThat(rt.launcher().passes(1) - before).as("low-latency: passes keep coming").isGreaterThan(5);
        }
    }

    @Test
    void stoppingTheLauncherWhileItsLoopsDozeEndsThem() {
        try (SeqlinkRuntime rt = runtime(IdleStrategyKind.BACKOFF)) {
            PublishChannel ch = channel(rt, "frames", 0, 1);
            listen(ch);
            rt.start();
            assertThat(await(() -> rt.launcher().loopsDozing())).isTrue();
            rt.launcher().stop(DEADLINE);
            assertThat(rt.launcher().running()).isFalse();
            assertThat(await(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().startsWith("seqlink-launcher-1") && t.isAlive())))
                    .as("the dozing loop's thread ended").isTrue();
        }
    }

    private static SeqlinkRuntime runtime(IdleStrategyKind idle) {
        return SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(4))
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(idle, 32, Duration.ofMillis(20))).open();
    }

    private static PublishChannel channel(SeqlinkRuntime rt, String name, int producer, Integer... consumers) {
        return rt.openChannel(ChannelSpec.builder(name).producer(producer).consumers(consumers).slots(16).slotBytes(64).build());
    }

    private static List<Long> listen(PublishChannel ch) {
        List<Long> got = new CopyOnWriteArrayList<>();
        for (int d : ch.consumerDevices()) {
            ch.consumer(d).subscribe(f -> got.add(f.sequence()));
        }
        return got;
    }

    /** Polls {@code condition} every 100 µs until it holds (true) or 30 s pass (false). Also DozeWakeTest's. */
    static boolean await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(100_000);
        }
        return true;
    }
}

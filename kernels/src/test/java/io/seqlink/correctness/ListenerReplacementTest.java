package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Replacing a listener ({@code subscribe}, {@code subscribeBatches}, {@code subscribeDevice}, at random) while
 * the launcher polls is atomic: every frame goes to exactly one listener, none to the error handler.
 */
class ListenerReplacementTest {

    private static final int FRAMES = 100_000;

    @Test
    void replacingTheListenerWhileTheLauncherPollsLosesNothing() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("frames", 0, 1).build());
            AtomicIntegerArray seen = new AtomicIntegerArray(FRAMES + 1);
            AtomicInteger deadLettered = new AtomicInteger();
            AtomicReference<Exception> firstError = new AtomicReference<>();
            FrameHandler single = frame -> seen.incrementAndGet((int) frame.sequence());
            FrameBatchHandler batches = (List<Frame> frames) -> {
                for (Frame f : frames) {
                    seen.incrementAndGet((int) f.sequence());
                }
            };
            DeviceFrameHandler device = frames -> {
                for (long s = frames.first(); s <= frames.last(); s++) {
                    seen.incrementAndGet((int) s);
                }
            };
            ConsumerPort port = ch.consumer(1).errorHandler((frame, cause) -> {
                deadLettered.incrementAndGet();
                firstError.compareAndSet(null, cause);
            }).subscribe(single);
            rt.start();

            Thread flipper = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!Thread.currentThread().isInterrupted()) {
                    switch (random.nextInt(3)) {
                        case 0 -> port.subscribe(single);
                        case 1 -> port.subscribeBatches(batches);
                        default -> port.subscribeDevice(device);
                    }
                    if (random.nextBoolean()) {
                        LockSupport.parkNanos(random.nextLong(1_000, 50_000));
                    }
                }
            }, "listener-flipper");
            flipper.start();
            for (long s = 1; s <= FRAMES; ) {
                if (ch.offer(Rig.frame(s, 0), 0, 24) > 0) {
                    s++;
                } else {
                    Thread.onSpinWait();
                }
            }
            boolean drained = Rig.await(Duration.ofSeconds(30), () -> port.acknowledged() >= FRAMES);
            flipper.interrupt();
            flipper.join();

            assertThat(deadLettered.get()).as("frames dead-lettered; first cause %s", firstError.get()).isZero();
            assertThat(drained).isTrue();
            int lost = 0;
            int duplicated = 0;
            for (int s = 1; s <= FRAMES; s++) {
                lost += seen.get(s) == 0 ? 1 : 0;
                duplicated += Math.max(0, seen.get(s) - 1);
            }
            assertThat(lost).as("lost").isZero();
            assertThat(duplicated).as("duplicated").isZero();
        }
    }
}

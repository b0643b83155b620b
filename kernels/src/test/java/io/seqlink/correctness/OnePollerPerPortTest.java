package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A port has one poller at a time. A user thread polling a port the launcher drives
 * is refused at once, naming the rule, and the launcher's delivery stays exactly-once and in order; two
 * user threads polling one port (no launcher) are refused the same way.
 */
class OnePollerPerPortTest {

    private static final int FRAMES = 100_000;

    /** Counts every delivery of every sequence; safe from any thread, so a second poller shows as a duplicate. */
    static final class Recorder implements FrameHandler {
        final AtomicIntegerArray seen = new AtomicIntegerArray(FRAMES + 1);
        final AtomicInteger corrupt = new AtomicInteger();
        final AtomicLong delivered = new AtomicLong();

        @Override
        public void onFrame(Frame frame) {
            long s = frame.sequence();
            if (s < 1 || s > FRAMES || !Rig.intact(frame.payload(), frame.length()) || frame.payload().getLong(0) != s) {
                corrupt.incrementAndGet();
            } else {
                seen.incrementAndGet((int) s);
            }
            delivered.incrementAndGet();
        }

        void assertExactlyOnce(int frames) {
            int duplicated = 0;
            int lost = 0;
            for (int s = 1; s <= frames; s++) {
                int n = seen.get(s);
                if (n == 0) {
                    lost++;
                } else if (n > 1) {
                    duplicated += n - 1;
                }
            }
            assertThat(corrupt.get()).as("corrupt frames").isZero();
            assertThat(duplicated).as("duplicated frames").isZero();
            assertThat(lost).as("lost frames").isZero();
        }
    }

    @Test
    void aUserPollOnALauncherDrivenPortIsRefusedAndDeliveryStaysExactlyOnce() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("frames", 0, 1).build());
            Recorder recorder = new Recorder();
            ConsumerPort port = ch.consumer(1).subscribe(recorder);
            rt.start();

            AtomicLong userPolls = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            AtomicReference<Throwable> firstRefusal = new AtomicReference<>();
            Thread intruder = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    userPolls.incrementAndGet();
                    try {
                        port.poll(recorder, 8);
                    } catch (IllegalStateException ex) {
                        refused.incrementAndGet();
                        firstRefusal.compareAndSet(null, ex);
                    }
                }
            }, "intruding-poller");
            intruder.start();
            for (long s = 1; s <= FRAMES; ) {
                long r = ch.offer(Rig.frame(s, 0), 0, 24);
                if (r > 0) {
                    s++;
                } else {
                    assertThat(r).as("offer status").isEqualTo(ClaimStatus.BACK_PRESSURED);
                    Thread.onSpinWait();
                }
            }
            boolean drained = Rig.await(Duration.ofSeconds(30), () -> port.acknowledged() >= FRAMES);
            intruder.interrupt();
            intruder.join();

            assertThat(refused.get()).as("user polls refused, of %d", userPolls.get()).isEqualTo(userPolls.get());
            assertThat(firstRefusal.get()).hasMessageContaining("consumer 1 of channel 'frames'")
                    .hasMessageContaining("launcher");
            assertThat(drained).as("the consumer drains (acknowledged %d of %d)", port.acknowledged(), FRAMES).isTrue();
            recorder.assertExactlyOnce(FRAMES);
            assertThat(ch.consumer(1).snapshot().delivered()).isEqualTo(FRAMES);
        }
    }

    @Test
    void twoUserThreadsPollingOnePortAreRefusedTheSecond() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) { // never started: users poll
            PublishChannel ch = rt.openChannel(Rig.channel("manual", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            CyclicBarrier inside = new CyclicBarrier(2);
            FrameHandler blocking = frame -> {
                try {
                    inside.await(10, TimeUnit.SECONDS);  // the first poller is inside its listener...
                    inside.await(10, TimeUnit.SECONDS);  // ...until the second has tried
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            };
            assertThat(ch.offer(Rig.frame(1, 0), 0, 24)).isEqualTo(1);
            Thread first = new Thread(() -> port.poll(blocking, 8), "first-poller");
            first.start();
            inside.await(10, TimeUnit.SECONDS);
            try {
                assertThatThrownBy(() -> port.poll(frame -> { }, 8)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("one thread at a time").hasMessageContaining("first-poller");
            } finally {
                inside.await(10, TimeUnit.SECONDS);
                first.join(10_000);
            }
            assertThat(port.acknowledged()).isEqualTo(1);
        }
    }
}

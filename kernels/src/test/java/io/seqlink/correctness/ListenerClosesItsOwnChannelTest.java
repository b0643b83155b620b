package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A listener that closes its own channel stalls nothing: the close returns at once,
 * another channel on the same consumer device keeps receiving, and the closed channel's memory is freed
 * when the listener returns, not when the runtime closes.
 */
class ListenerClosesItsOwnChannelTest {

    @Test
    void aListenerClosingItsOwnChannelDoesNotStallTheDevice() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            EmulatedBackend backend = Rig.emulated(rt);
            int baseline = backend.liveAllocations();
            PublishChannel other = rt.openChannel(Rig.channel("other", 0, 1).build());
            AtomicLong otherDelivered = new AtomicLong();
            other.consumer(1).subscribe(f -> otherDelivered.incrementAndGet());
            int withOther = backend.liveAllocations();

            PublishChannel self = rt.openChannel(Rig.channel("self", 0, 1).build());
            AtomicLong closeMillis = new AtomicLong(-1);
            CountDownLatch closed = new CountDownLatch(1);
            self.consumer(1).subscribe(frame -> {
                long start = System.nanoTime();
                self.close();
                closeMillis.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                closed.countDown();
            });
            rt.start();
            assertThat(self.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            // while the listener closes its channel, the other channel's frames keep arriving
            long start = System.nanoTime();
            for (int i = 1; i <= 20; i++) {
                assertThat(other.offer(Rig.frame(i, 2), 0, 24)).isPositive();
                long n = i;
                assertThat(Rig.await(Duration.ofSeconds(10), () -> otherDelivered.get() >= n)).isTrue();
            }
            long otherMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(closeMillis.get()).as("close() from the listener took %d ms", closeMillis.get()).isLessThan(1_000);
            assertThat(otherMillis).as("20 frames on the other channel took %d ms", otherMillis).isLessThan(1_000);
            assertThat(self.state()).isEqualTo(ChannelState.CLOSED);
            assertThat(other.consumer(1).snapshot().stalls()).isZero();
            assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == withOther))
                    .as("the closed channel's memory is freed (%d allocations, %d before it opened, %d with none)",
                            backend.liveAllocations(), withOther, baseline).isTrue();
        }
    }
}

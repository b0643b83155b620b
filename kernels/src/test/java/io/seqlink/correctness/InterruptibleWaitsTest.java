package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, row 8: a producer interrupted inside {@code claim(timeout)} returns promptly, with the
 * interrupt flag still set, instead of spinning for the rest of the timeout.
 */
class InterruptibleWaitsTest {

    @Test
    void anInterruptedClaimReturnsPromptlyAndKeepsTheFlag() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("full", 0, 1).slots(4).maxPublishBatch(1).build());
            for (int i = 0; i < 4; i++) {
                assertThat(ch.offer(new byte[8], 0, 8)).isPositive(); // nobody consumes: the ring is full
            }
            AtomicLong status = new AtomicLong();
            AtomicLong nanos = new AtomicLong();
            AtomicBoolean flagKept = new AtomicBoolean();
            Thread producer = new Thread(() -> {
                long start = System.nanoTime();
                status.set(ch.claim(10, TimeUnit.SECONDS));
                nanos.set(System.nanoTime() - start);
                flagKept.set(Thread.currentThread().isInterrupted());
            });
            producer.start();
            assertThat(Rig.await(java.time.Duration.ofSeconds(5), () -> producer.getState() == Thread.State.TIMED_WAITING
                    || producer.getState() == Thread.State.RUNNABLE)).isTrue();
            Thread.sleep(50); // inside the wait
            long interruptedAt = System.nanoTime();
            producer.interrupt();
            producer.join(10_000);
            long afterInterrupt = System.nanoTime() - interruptedAt;
            assertThat(status.get()).isEqualTo(ClaimStatus.BACK_PRESSURED);
            assertThat(flagKept.get()).as("the interrupt flag is kept").isTrue();
            assertThat(afterInterrupt).as("returned %d ms after the interrupt", afterInterrupt / 1_000_000)
                    .isLessThan(TimeUnit.SECONDS.toNanos(1));
        }
    }
}

package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A producer interrupted inside {@code claim(timeout)} returns promptly, with the
 * interrupt flag still set, instead of spinning for the rest of the timeout; so do a drain and the
 * runtime's close waiting for a consumer that does not come.
 */
class InterruptibleWaitsTest {

    @Test
    void anInterruptedClaimReturnsPromptlyAndKeepsTheFlag() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ZERO).open()) {
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
            assertThat(Rig.await(Duration.ofSeconds(5), () -> producer.getState() == Thread.State.TIMED_WAITING
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

    @Test
    void anInterruptedDrainReturnsPromptlyReportsItAndKeepsTheFlag() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ZERO).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("undrained", 0, 1).build());
            assertThat(ch.offer(new byte[8], 0, 8)).isEqualTo(1); // nobody consumes it
            AtomicReference<DrainReport> report = new AtomicReference<>();
            interruptWhileDraining(ch, () -> report.set(ch.drainAndClose(Duration.ofSeconds(10))));
            assertThat(report.get().interrupted()).isTrue();
            assertThat(report.get().undelivered()).containsEntry(1, 1L);
            assertThat(ch.state()).isEqualTo(ChannelState.CLOSED);
        }
    }

    @Test
    void anInterruptedRuntimeCloseReturnsPromptlyAndKeepsTheFlag() throws Exception {
        SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofSeconds(10)).open();
        PublishChannel ch = rt.openChannel(Rig.channel("undrained", 0, 1).build());
        assertThat(ch.offer(new byte[8], 0, 8)).isEqualTo(1);
        interruptWhileDraining(ch, rt::close);
        assertThat(rt.closed()).isTrue();
        assertThat(rt.drainReports()).singleElement().satisfies(r -> assertThat(r.interrupted()).isTrue());
    }

    /** Runs {@code wait} on a thread of its own, interrupts it once {@code ch} drains: it returns within a second, flag kept. */
    private static void interruptWhileDraining(PublishChannel ch, Runnable wait) throws InterruptedException {
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            wait.run();
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        assertThat(Rig.await(Duration.ofSeconds(5), () -> ch.state() == ChannelState.DRAINING)).isTrue();
        long interruptedAt = System.nanoTime();
        waiter.interrupt();
        waiter.join(10_000);
        long afterInterrupt = System.nanoTime() - interruptedAt;
        assertThat(afterInterrupt).as("returned %d ms after the interrupt", afterInterrupt / 1_000_000)
                .isLessThan(TimeUnit.SECONDS.toNanos(1));
        assertThat(flagKept.get()).as("the interrupt flag is kept").isTrue();
    }
}

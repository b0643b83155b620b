package io.seqlink.channel.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.channel.ChannelState;
import java.util.Objects;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link AttachmentState}: a failure reported while the attachment's port is still being built (its lease or its device,
 * before the bind) seals the port as it binds, and one reported as it binds is never lost between the two threads.
 */
class AttachmentStateTest {

    @Test
    void aFailureBeforeTheBindSealsThePortAsItBinds() {
        AttachmentState states = new AttachmentState("frames", 3, 7);
        states.seatLost("the seat was taken back before frame 12");
        AtomicInteger seals = new AtomicInteger();
        states.bind(seals::incrementAndGet);
        assertThat(seals).hasValue(1);
        assertThat(states.state()).isEqualTo(ChannelState.FAILED);
        assertThat(states.failure()).hasRootCauseMessage("the seat was taken back before frame 12");
    }

    @Test
    void aFailureRacingTheBindSealsThePortEveryTime() throws Exception {
        int rounds = 10_000;
        int unsealed = 0;
        CyclicBarrier start = new CyclicBarrier(2);
        for (int i = 0; i < rounds; i++) {
            AttachmentState states = new AttachmentState("frames", 0, 1);
            AtomicInteger seals = new AtomicInteger();
            Thread failing = new Thread(() -> {
                await(start);
                states.fail("the producer is gone");
            });
            failing.start();
            await(start);
            states.bind(seals::incrementAndGet);
            failing.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(failing.isAlive()).isFalse();
            if (seals.get() == 0) {
                unsealed++;
            }
        }
        assertThat(unsealed).as("attachments failed but left unsealed in %d rounds", rounds).isZero();
    }

    @Test
    void closingAfterAFailureClosesOnceAndForgetsTheFailure() {
        AttachmentState states = new AttachmentState("frames", 0, 1);
        AtomicInteger seals = new AtomicInteger();
        states.bind(seals::incrementAndGet);
        states.fail("the producer is gone");
        states.seatLost("the seat was taken back after frame 40");
        Throwable failure = Objects.requireNonNull(states.failure());
        assertThat(failure).hasRootCauseMessage("the producer is gone");
        assertThat(failure.getSuppressed()).singleElement()
                .satisfies(t -> assertThat(t).hasMessage("the seat was taken back after frame 40"));
        assertThat(states.close()).isTrue();
        assertThat(states.close()).isFalse();
        assertThat(states.state()).isEqualTo(ChannelState.CLOSED);
        assertThat(states.failure()).isNull();
        assertThat(seals).hasValue(1);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

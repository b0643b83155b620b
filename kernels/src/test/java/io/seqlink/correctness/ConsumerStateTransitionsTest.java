package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * Pausing and resuming a consumer (what the endpoint does) races the close and the
 * failure paths without ever undoing them: a closed consumer stays CLOSED, a dead one DEAD.
 */
class ConsumerStateTransitionsTest {

    private static final int ROUNDS = 3_000;

    @Test
    void pauseAndResumeNeverReopenAClosedConsumer() throws Exception {
        List<String> failures = new ArrayList<>();
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            for (int round = 0; round < ROUNDS; round++) {
                PublishChannel ch = rt.openChannel(Rig.channel("toggled", 0, 1).build());
                ConsumerPort port = ch.consumer(1);
                race(port, ch::close);
                if (port.state() != ConsumerState.CLOSED) {
                    failures.add("round " + round + ": closed consumer is " + port.state());
                }
            }
        }
        assertThat(failures).as("rounds, of %d", ROUNDS).isEmpty();
    }

    @Test
    void pauseAndResumeNeverReviveADeadConsumer() throws Exception {
        List<String> failures = new ArrayList<>();
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            for (int round = 0; round < ROUNDS; round++) {
                PublishChannel ch = rt.openChannel(Rig.channel("dying-" + round, 0, 1)
                        .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
                ConsumerPort port = ch.consumer(1);
                race(port, () -> Channels.consumerDeviceLost(ch, 1, new IllegalStateException("lost")));
                if (port.state() != ConsumerState.DEAD) {
                    failures.add("round " + round + ": dead consumer is " + port.state());
                }
                ch.close();
            }
        }
        assertThat(failures).as("rounds, of %d", ROUNDS).isEmpty();
    }

    /** Toggles pause and resume on one thread while {@code transition} runs on another. */
    private static void race(ConsumerPort port, Runnable transition) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        Thread toggler = new Thread(() -> {
            try {
                start.await();
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
            for (int i = 0; i < 2_000; i++) {
                port.pause();
                port.resume();
            }
        });
        toggler.start();
        start.await();
        transition.run();
        toggler.join();
    }
}

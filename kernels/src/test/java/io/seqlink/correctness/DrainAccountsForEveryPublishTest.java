package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A frame whose {@code offer} returned success just as {@code drainAndClose} began is
 * either delivered or counted in the {@link DrainReport}: the report's target covers every accepted
 * frame, and delivered plus undelivered covers the target.
 */
class DrainAccountsForEveryPublishTest {

    private static final int ROUNDS = 1_000;

    @Test
    void everyAcceptedFrameIsDeliveredOrReported() throws Exception {
        List<String> failures = new ArrayList<>();
        // threaded streams: the publish step runs after offer returns, as on a GPU
        EmulatedTopology topology = EmulatedTopology.builder(2).streamMode(EmulatedTopology.StreamMode.THREADED).build();
        try (SeqlinkRuntime rt = Rig.runtime(topology).open()) {
            rt.start();
            for (int round = 0; round < ROUNDS; round++) {
                PublishChannel ch = rt.openChannel(Rig.channel("drained", 0, 1).slots(8192).build());
                AtomicLong delivered = new AtomicLong();
                AtomicLong lastDelivered = new AtomicLong();
                ch.consumer(1).subscribe(f -> {
                    delivered.incrementAndGet();
                    lastDelivered.set(f.sequence());
                });
                AtomicLong lastAccepted = new AtomicLong();
                AtomicLong accepted = new AtomicLong();
                Thread producer = new Thread(() -> {
                    byte[] frame = Rig.frame(1, 2);
                    while (true) {
                        long seq;
                        try {
                            seq = ch.offer(frame, 0, 24);
                        } catch (IllegalStateException closing) {
                            return; // refused: not accepted
                        }
                        if (seq > 0) {
                            accepted.incrementAndGet();
                            lastAccepted.set(seq);
                        } else if (seq != io.seqlink.channel.ClaimStatus.BACK_PRESSURED) {
                            return;
                        }
                    }
                });
                producer.start();
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(50_000, 1_000_000));
                DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
                producer.join();
                long undelivered = report.undelivered().getOrDefault(1, 0L);
                if (lastAccepted.get() > report.published()) {
                    failures.add("round " + round + ": frame " + lastAccepted.get() + " was accepted, the report covers "
                            + report.published());
                } else if (delivered.get() + undelivered < accepted.get()) {
                    failures.add("round " + round + ": " + accepted.get() + " accepted, " + delivered.get() + " delivered, "
                            + undelivered + " reported undelivered");
                }
            }
        }
        assertThat(failures).as("rounds that lost an accepted frame, of %d", ROUNDS).isEmpty();
    }
}

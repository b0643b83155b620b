package io.seqlink.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A frame handed to the error handler counts as dead-lettered, not as delivered: the two counters add
 * up to what was published, for per-frame and batch listeners alike.
 */
class DeliveredCountReliabilityTest {

    private static final int FRAMES = 40;

    @Test
    void aDeadLetteredFrameIsNotCountedAsDelivered() {
        AtomicInteger deadLettered = new AtomicInteger();
        ConsumerSnapshot c = run(port -> port.subscribe(frame -> {
            if (frame.sequence() % 2 == 0) {
                throw new IllegalStateException("even frames fail");
            }
        }), deadLettered);
        assertThat(c.delivered()).isEqualTo(FRAMES / 2);
        assertThat(c.deadLettered()).isEqualTo(FRAMES / 2).isEqualTo(deadLettered.get());
    }

    @Test
    void aDeadLetteredBatchIsNotCountedAsDelivered() {
        AtomicInteger deadLettered = new AtomicInteger();
        ConsumerSnapshot c = run(port -> port.subscribeBatches(frames -> {
            throw new IllegalStateException("every batch fails");
        }), deadLettered);
        assertThat(c.delivered()).isZero();
        assertThat(c.deadLettered()).isEqualTo(FRAMES).isEqualTo(deadLettered.get());
    }

    private static ConsumerSnapshot run(java.util.function.Consumer<ConsumerPort> subscribe, AtomicInteger deadLettered) {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(2)).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("counts").producer(0).consumers(1).slots(8).slotBytes(64).build());
            ConsumerPort port = ch.consumer(1);
            subscribe.accept(port);
            port.retryPolicy(new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO))
                    .errorHandler((frame, cause) -> deadLettered.incrementAndGet());
            int published = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while ((published < FRAMES || port.snapshot().lag() > 0) && System.nanoTime() < deadline) {
                if (published < FRAMES && ch.offer(new byte[] {(byte) published}, 0, 1) > 0) {
                    published++;
                }
                port.poll(8);
            }
            assertThat(published).isEqualTo(FRAMES);
            return port.snapshot();
        }
    }
}

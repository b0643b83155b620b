package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code runtime.close()} while a listener blocks keeps to the drain timeout (within a
 * second) and frees nothing the listener can still reach: the listener reads its frame intact when it
 * finally returns, and the memory goes only then.
 */
class CloseKeepsItsTimeoutTest {

    @Test
    void closeWhileAListenerBlocksReturnsWithinTheDrainTimeout() throws Exception {
        SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofMillis(500)).open();
        EmulatedBackend backend = Rig.emulated(rt);
        PublishChannel ch = rt.openChannel(Rig.channel("blocked", 0, 1).build());
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> afterRelease = new AtomicReference<>();
        ch.consumer(1).subscribe(frame -> {
            entered.countDown();
            release.await();
            try {
                afterRelease.set(Rig.intact(frame.payload(), frame.length()) ? "intact" : "corrupt");
            } catch (RuntimeException ex) {
                afterRelease.set(ex.toString());
            }
        });
        rt.start();
        assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        long start = System.nanoTime();
        rt.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        release.countDown();

        assertThat(closeMillis).as("close took %d ms with a 500 ms drain timeout", closeMillis).isLessThan(1_500);
        assertThat(Rig.await(Duration.ofSeconds(10), () -> afterRelease.get() != null)).isTrue();
        assertThat(afterRelease.get()).as("the frame the listener held").isEqualTo("intact");
        assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == 0))
                .as("memory freed once the listener returned: %d allocations left", backend.liveAllocations()).isTrue();
    }
}

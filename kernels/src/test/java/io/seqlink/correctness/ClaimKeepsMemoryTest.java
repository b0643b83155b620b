package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A claim being written keeps the channel's memory: the slot a producer writes through {@code buffer()}
 * is pinned memory (on a GPU, a write after its free faults the process), so a close that races the
 * writer waits for its commit, up to the close's timeout, and frees the memory only after the claim
 * ended. The commit a closed channel refuses ends the claim, once.
 */
class ClaimKeepsMemoryTest {

    @Test
    void aCloseWaitsForTheClaimBeingWrittenAndFreesTheMemoryOnlyAfterIt() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            EmulatedBackend backend = Rig.emulated(rt);
            int baseline = backend.liveAllocations();
            PublishChannel ch = rt.openChannel(Rig.channel("claim-kept", 0, 1).build());
            ch.consumer(1).subscribe(f -> { });
            rt.start();
            int withChannel = backend.liveAllocations();

            CountDownLatch claimed = new CountDownLatch(1);
            CountDownLatch write = new CountDownLatch(1);
            AtomicReference<Throwable> commitError = new AtomicReference<>();
            AtomicReference<String> freedUnderWriter = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                assertThat(ch.tryClaim()).isEqualTo(1);
                ByteBuffer slot = ch.buffer();
                claimed.countDown();
                try {
                    write.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                if (backend.liveAllocations() != withChannel) {
                    freedUnderWriter.set(backend.liveAllocations() + " of " + withChannel + " allocations left");
                }
                Rig.writeFrame(slot, 1, 2);
                try {
                    ch.commit(24);
                } catch (RuntimeException ex) {
                    commitError.set(ex);
                }
            }, "claim-writer");
            writer.start();
            assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<DrainReport> close = CompletableFuture.supplyAsync(() -> ch.drainAndClose(Duration.ofSeconds(10)));
            assertThat(Rig.await(Duration.ofSeconds(5), () -> ch.state() != ChannelState.OPEN)).isTrue();
            // the close has begun; give it time to free the memory if it is going to
            assertThat(Rig.await(Duration.ofMillis(300), close::isDone)).as("the close waits for the claim being written").isFalse();
            assertThat(backend.liveAllocations()).as("the channel's memory while a claim is written").isEqualTo(withChannel);

            write.countDown();
            writer.join(10_000);
            assertThat(freedUnderWriter.get()).as("memory freed under the writer").isNull();
            assertThat(commitError.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("dropped");
            DrainReport report = close.get(10, TimeUnit.SECONDS);
            assertThat(report.unpublished()).isEqualTo(1);
            assertThat(report.timedOut()).isFalse();
            assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == baseline))
                    .as("the memory is freed once the claim ended (%d allocations, %d with none)", backend.liveAllocations(), baseline)
                    .isTrue();
        }
    }

    @Test
    void theClosingThreadsOwnClaimDoesNotHoldItsCloseUp() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            EmulatedBackend backend = Rig.emulated(rt);
            int baseline = backend.liveAllocations();
            PublishChannel ch = rt.openChannel(Rig.channel("own-claim", 0, 1).build());
            ch.consumer(1).subscribe(f -> { });
            rt.start();
            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).isEqualTo(1);
            assertThat(ch.tryClaim()).isEqualTo(2);

            long start = System.nanoTime();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(10));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(millis).as("close with the caller's own claim open took %d ms", millis).isLessThan(5_000);
            assertThat(report.published()).isEqualTo(1);
            assertThat(report.totalUndelivered()).isZero();
            assertThat(report.unpublished()).isEqualTo(1);

            // the claim still holds the memory: the staging slot can be written, and its commit is refused once
            Rig.writeFrame(ch.buffer(), 2, 2);
            assertThatThrownBy(() -> ch.commit(24)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThatThrownBy(() -> ch.commit(24)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThatThrownBy(ch::buffer).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == baseline))
                    .as("freed once the refused commit ended the claim").isTrue();
        }
    }
}

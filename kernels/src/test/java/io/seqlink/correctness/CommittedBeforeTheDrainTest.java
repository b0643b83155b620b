package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A frame its thread committed but had not yet published when the drain began (claim, commit, then the shutdown, then
 * {@code publish()}) is accepted: the drain publishes it and the listener gets it, and the thread's {@code publish()}
 * returns instead of throwing. A service shut down between a request's commit and its publish loses nothing.
 * A {@code publish()} made while the drain still waits for another thread's claim waits for the drain's verdict:
 * returning early with an exception would tell the caller its frame was lost while the drain then delivers it, and a
 * caller that sends it again duplicates it.
 */
class CommittedBeforeTheDrainTest {

    @Test
    void theDrainPublishesWhatWasCommittedAndThePublishAfterItReturns() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            List<Long> got = new CopyOnWriteArrayList<>();
            PublishChannel ch = openRecording(rt, "committed", got);
            CountDownLatch committed = new CountDownLatch(1);
            CountDownLatch drained = new CountDownLatch(1);
            CompletableFuture<Integer> publishAfter = commitThenPublish(ch, committed, drained); // frame 1
            assertThat(committed.await(30, TimeUnit.SECONDS)).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(30));
            drained.countDown();
            assertThat(publishAfter.get(30, TimeUnit.SECONDS)).as("publish() after the drain: the drain published it").isZero();
            assertThat(report.published()).as("the committed frame counts as published: %s", report).isEqualTo(1);
            assertThat(report.unpublished()).as("nothing committed is left unpublished").isZero();
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(got).as("the listener got the committed frame").containsExactly(1L);
        }
    }

    @Test
    void aPublishWhileTheDrainWaitsForAnotherClaimReturnsOnceTheDrainPublishedItsFrame() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            List<Long> got = new CopyOnWriteArrayList<>();
            PublishChannel ch = openRecording(rt, "committed-during", got);
            CountDownLatch committed = new CountDownLatch(1);
            CountDownLatch draining = new CountDownLatch(1);
            // frame 1; its publish() comes while the drain is held up by the other claim: it waits for the verdict
            CompletableFuture<Integer> committer = commitThenPublish(ch, committed, draining);
            assertThat(committed.await(30, TimeUnit.SECONDS)).isTrue();
            CountDownLatch claimedByOther = new CountDownLatch(1);
            CountDownLatch releaseOther = new CountDownLatch(1);
            CompletableFuture<Boolean> other = holdClaim(ch, claimedByOther, releaseOther);
            assertThat(claimedByOther.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<DrainReport> drain = CompletableFuture.supplyAsync(() -> ch.drainAndClose(Duration.ofSeconds(30)));
            while (ch.state() == ChannelState.OPEN) {
                LockSupport.parkNanos(100_000);
            }
            draining.countDown();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // the committer reaches its publish()
            assertThat(committer).as("publish() waits while the drain has not published its frame").isNotDone();
            releaseOther.countDown();
            assertThat(other.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(committer.get(30, TimeUnit.SECONDS)).as("the drain published the committer's frame").isZero();
            DrainReport report = drain.get(30, TimeUnit.SECONDS);
            assertThat(report.published()).as("frame 1 and the padding of 2: %s", report).isEqualTo(2);
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(got).as("the committed frame delivered once").containsExactly(1L);
        }
    }

    @Test
    void aPublishInterruptedWhileTheDrainDecidesSaysNotToSendAgain() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            List<Long> got = new CopyOnWriteArrayList<>();
            PublishChannel ch = openRecording(rt, "committed-interrupted", got);
            CountDownLatch claimedByOther = new CountDownLatch(1);
            CountDownLatch releaseOther = new CountDownLatch(1);
            CompletableFuture<Boolean> other = holdClaim(ch, claimedByOther, releaseOther);
            assertThat(claimedByOther.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            CountDownLatch committed = new CountDownLatch(1);
            Thread committer = new Thread(() -> {
                commitOne(ch);
                committed.countDown();
                while (ch.state() == ChannelState.OPEN) {
                    LockSupport.parkNanos(100_000);
                }
                try {
                    ch.publish();
                    thrown.complete(null);
                } catch (RuntimeException ex) {
                    thrown.complete(Thread.currentThread().isInterrupted() ? ex : new AssertionError("flag lost", ex));
                }
            }, "committer");
            committer.start();
            assertThat(committed.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<DrainReport> drain = CompletableFuture.supplyAsync(() -> ch.drainAndClose(Duration.ofSeconds(30)));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            committer.interrupt();
            assertThat(thrown.get(30, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("interrupted").hasMessageContaining("do not send them again");
            releaseOther.countDown();
            assertThat(other.get(30, TimeUnit.SECONDS)).isTrue();
            DrainReport report = drain.get(30, TimeUnit.SECONDS);
            assertThat(got).as("the drain still delivered the interrupted thread's frame: %s", report).hasSize(1);
            assertThat(report.clean()).as("%s", report).isTrue();
        }
    }

    /** A channel from device 0 to 1 whose listener on 1 records each sequence in {@code got}, the runtime started. */
    private static PublishChannel openRecording(SeqlinkRuntime rt, String name, List<Long> got) {
        PublishChannel ch = rt.openChannel(Rig.channel(name, 0, 1).build());
        ch.consumer(1).subscribe(frame -> got.add(frame.sequence()));
        rt.start();
        return ch;
    }

    /**
     * Another thread's claim, held open (inside the producer guard, so a drain waits for it) from {@code claimed} until
     * {@code release}, then given back as padding; the future says whether {@code abandon()} found it.
     */
    private static CompletableFuture<Boolean> holdClaim(PublishChannel ch, CountDownLatch claimed, CountDownLatch release) {
        return CompletableFuture.supplyAsync(() -> {
            ch.claim(30, TimeUnit.SECONDS);
            claimed.countDown();
            await(release);
            return ch.abandon();
        });
    }

    /** On another thread: commits one frame, says so on {@code committed}, and publishes once {@code gate} opens. */
    private static CompletableFuture<Integer> commitThenPublish(PublishChannel ch, CountDownLatch committed, CountDownLatch gate) {
        return CompletableFuture.supplyAsync(() -> {
            commitOne(ch);
            committed.countDown();
            await(gate);
            return ch.publish();
        });
    }

    /** Claims and commits one frame on the calling thread, without publishing it. */
    private static void commitOne(PublishChannel ch) {
        long seq = ch.claim(30, TimeUnit.SECONDS);
        assertThat(seq).isPositive();
        ch.buffer().putLong(0, seq);
        ch.commit(8);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

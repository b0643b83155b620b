package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A frame its thread committed but had not yet published when the drain began (claim, commit, then the shutdown, then
 * {@code publish()}) is accepted: the drain publishes it and the listener gets it, and the thread's {@code publish()}
 * returns instead of throwing. A service shut down between a request's commit and its publish loses nothing.
 */
class CommittedBeforeTheDrainTest {

    @Test
    void theDrainPublishesWhatWasCommittedAndThePublishAfterItReturns() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("committed", 0, 1).build());
            List<Long> got = new CopyOnWriteArrayList<>();
            ch.consumer(1).subscribe(frame -> got.add(frame.sequence()));
            rt.start();
            CountDownLatch committed = new CountDownLatch(1);
            CountDownLatch drained = new CountDownLatch(1);
            CompletableFuture<Integer> publishAfter = CompletableFuture.supplyAsync(() -> {
                long seq = ch.claim(30, TimeUnit.SECONDS);
                assertThat(seq).isEqualTo(1);
                ch.buffer().putLong(0, seq);
                ch.commit(8);
                committed.countDown();
                try {
                    drained.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return ch.publish();
            });
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
}

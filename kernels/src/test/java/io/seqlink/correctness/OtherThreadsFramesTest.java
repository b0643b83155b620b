package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread that holds no frame of the open window never gets a status that only other threads' frames
 * in flight caused: {@code offer} and {@code tryClaim} return {@code BACK_PRESSURED} (retry) there, never
 * {@code BATCH_FULL}, which stays for a thread whose own committed frames wait for its {@code publish()}.
 */
class OtherThreadsFramesTest {

    @Test
    void aThreadWithNoFrameInTheWindowIsBackPressuredNotBatchFull() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("window-of-one", 0, 1).maxPublishBatch(1).build());
            ch.consumer(1).subscribe(frame -> { });
            rt.start();

            CountDownLatch claimed = new CountDownLatch(1);
            CountDownLatch commit = new CountDownLatch(1);
            CountDownLatch committed = new CountDownLatch(1);
            CountDownLatch claimAgain = new CountDownLatch(1);
            AtomicLong ownStatus = new AtomicLong();
            AtomicReference<Throwable> holderError = new AtomicReference<>();
            Thread holder = new Thread(() -> {
                try {
                    assertThat(ch.tryClaim()).isEqualTo(1);
                    Rig.writeFrame(ch.buffer(), 1, 1);
                    claimed.countDown();
                    commit.await(10, TimeUnit.SECONDS);
                    ch.commit(24); // committed, not published: its own frame holds the window
                    committed.countDown();
                    claimAgain.await(10, TimeUnit.SECONDS);
                    ownStatus.set(ch.tryClaim());
                } catch (Throwable ex) {
                    holderError.set(ex);
                }
            }, "claim-holder");
            holder.start();
            assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();

            byte[] frame = Rig.frame(2, 2);
            assertThat(ClaimStatus.describe(ch.offer(frame, 0, 24))).as("offer while another thread writes the window's frame")
                    .isEqualTo("BACK_PRESSURED");
            assertThat(ClaimStatus.describe(ch.tryClaim())).as("tryClaim while another thread writes the window's frame")
                    .isEqualTo("BACK_PRESSURED");
            assertThat(ch.snapshot().backpressured()).as("both counted as back-pressure").isEqualTo(2);

            commit.countDown();
            assertThat(committed.await(10, TimeUnit.SECONDS)).isTrue();
            claimAgain.countDown();
            holder.join(10_000);
            assertThat(holderError.get()).isNull();
            assertThat(ClaimStatus.describe(ownStatus.get())).as("the holder's own committed frame waits for its publish()")
                    .isEqualTo("BATCH_FULL");

            // the window holds the holder's committed frame only: an offer publishes it and goes on
            assertThat(ch.offer(frame, 0, 24)).as("offer behind a committed frame of another thread").isEqualTo(2);
        }
    }

    @Test
    void severalThreadsOfferingAtOnceSeeOnlySequencesAndBackPressure() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("many-offers", 0, 1).slots(64).maxPublishBatch(2).build());
            AtomicLong delivered = new AtomicLong();
            ch.consumer(1).subscribe(frame -> delivered.incrementAndGet());
            rt.start();

            ConcurrentHashMap<String, Long> otherStatuses = new ConcurrentHashMap<>();
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                producers.add(new Thread(() -> {
                    byte[] frame = Rig.frame(id, id);
                    for (int i = 0; i < perThread; i++) {
                        long seq;
                        while ((seq = ch.offer(frame, 0, 24)) == ClaimStatus.BACK_PRESSURED) {
                            Thread.yield(); // what a caller written for backpressure does
                        }
                        if (seq < 0) {
                            otherStatuses.merge(ClaimStatus.describe(seq), 1L, Long::sum);
                            return;
                        }
                    }
                }, "offerer-" + t));
            }
            producers.forEach(Thread::start);
            for (Thread p : producers) {
                p.join(TimeUnit.SECONDS.toMillis(120));
            }
            assertThat(otherStatuses).as("statuses other than a sequence or BACK_PRESSURED").isEmpty();
            assertThat(Rig.await(Duration.ofSeconds(30), () -> delivered.get() == (long) threads * perThread))
                    .as("delivered %d of %d", delivered.get(), threads * perThread).isTrue();
        }
    }
}

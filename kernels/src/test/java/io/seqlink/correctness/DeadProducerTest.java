package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A producer thread that dies between {@code tryClaim} and {@code commit}: the next producer that finds
 * the window stopped at its claim gives it back on its behalf (published as padding, which no listener
 * sees), so the frames other threads offer behind it are delivered and later offers go on; and closing
 * the runtime frees everything the channel allocated.
 */
class DeadProducerTest {

    private static final int FRAMES = 40;

    @Test
    void aClaimWhoseThreadDiedIsGivenBackByTheNextProducerAndTheFramesBehindItAreDelivered() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofSeconds(2)).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("dead-claim", 0, 1).maxPublishBatch(4).build());
            List<Long> got = new CopyOnWriteArrayList<>();
            AtomicLong torn = new AtomicLong();
            ch.consumer(1).subscribe(frame -> {
                if (!Rig.intact(frame.payload(), frame.length())) {
                    torn.incrementAndGet();
                }
                got.add(frame.payload().getLong(0));
            });
            rt.start();

            assertThat(claimAndDie(ch)).as("the doomed thread's claim").isEqualTo(1);
            List<Long> sequences = offerAll(ch, FRAMES);

            assertThat(Rig.await(Duration.ofSeconds(20), () -> got.size() >= FRAMES))
                    .as("frames offered behind the dead claim delivered: %d of %d (sequences %s)", got.size(), FRAMES, sequences)
                    .isTrue();
            assertThat(got).as("each frame once, in order, and no padding").containsExactlyElementsOf(ids(FRAMES));
            assertThat(torn.get()).isZero();
            assertThat(sequences).as("the dead claim's sequence is not handed out again").doesNotContain(1L);
            ChannelSnapshot s = ch.snapshot();
            assertThat(s.claimsAbandoned()).as("given back once, on the dead thread's behalf").isEqualTo(1);
            assertThat(s.openClaim()).isNull();
            assertThat(Rig.await(Duration.ofSeconds(10), () -> ch.consumer(1).snapshot().delivered() == FRAMES))
                    .as("delivered counted: %s", ch.consumer(1).snapshot()).isTrue();
            assertThat(ch.consumer(1).snapshot().paddingSkipped()).as("the padding acknowledged, not delivered").isEqualTo(1);
        }
    }

    @Test
    void theSnapshotShowsTheDeadThreadsOpenClaimAndItsAgeUntilAProducerGivesItBack() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("dead-claim-seen", 0, 1).maxPublishBatch(4).build());
            ch.consumer(1).subscribe(frame -> { });
            rt.start();
            assertThat(claimAndDie(ch)).isEqualTo(1);

            ChannelSnapshot.OpenClaim first = ch.snapshot().openClaim();
            assertThat(first).isNotNull();
            assertThat(first.sequence()).isEqualTo(1);
            assertThat(first.owner()).isEqualTo("doomed-producer");
            assertThat(first.ownerAlive()).isFalse();
            long t0 = System.nanoTime();
            assertThat(Rig.await(Duration.ofSeconds(10), () -> System.nanoTime() - t0 > 20_000_000)).isTrue();
            ChannelSnapshot.OpenClaim later = ch.snapshot().openClaim();
            assertThat(later).isNotNull();
            assertThat(later.openNanos()).as("open since the first snapshot saw it").isGreaterThanOrEqualTo(20_000_000);

            assertThat(ch.offer(Rig.frame(1, 1), 0, 24)).as("the next producer gives it back and goes on").isEqualTo(2);
            assertThat(ch.snapshot().openClaim()).isNull();
            assertThat(ch.snapshot().published()).isEqualTo(2);
        }
    }

    @Test
    void aBlockingClaimBehindADeadThreadsClaimGetsASlot() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("dead-claim-claim", 0, 1).maxPublishBatch(1).build());
            ch.consumer(1).subscribe(frame -> { });
            rt.start();
            assertThat(claimAndDie(ch)).isEqualTo(1);
            assertThat(ch.claim(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(2);
            ch.commit(0);
            assertThat(ch.publish()).isEqualTo(1);
            assertThat(ch.snapshot().claimsAbandoned()).isEqualTo(1);
        }
    }

    @Test
    void closingTheRuntimeFreesEveryAllocationAndStreamAfterAThreadDiedHoldingAClaim() throws Exception {
        EmulatedBackend backend;
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofSeconds(2)).open()) {
            backend = Rig.emulated(rt);
            PublishChannel ch = rt.openChannel(Rig.channel("dead-claim-close", 0, 1).maxPublishBatch(4).build());
            ch.consumer(1).subscribe(frame -> { });
            rt.start();
            offerAll(ch, 2);
            assertThat(claimAndDie(ch)).as("the doomed thread's claim").isEqualTo(3);
            // nobody produces after it: the close alone must give the claim back
        }
        assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == 0 && backend.liveStreams() == 0))
                .as("after close: %d allocations and %d streams left", backend.liveAllocations(), backend.liveStreams())
                .isTrue();
    }

    @Test
    void closingTheRuntimeFreesEverythingWhenOtherThreadsOfferedBehindTheDeadClaim() throws Exception {
        EmulatedBackend backend;
        try (SeqlinkRuntime rt = Rig.runtime(2).drainTimeout(Duration.ofSeconds(2)).open()) {
            backend = Rig.emulated(rt);
            PublishChannel ch = rt.openChannel(Rig.channel("dead-claim-busy", 0, 1).maxPublishBatch(4).build());
            ch.consumer(1).subscribe(frame -> { });
            rt.start();
            assertThat(claimAndDie(ch)).isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                ch.offer(Rig.frame(i, i), 0, 24); // whatever they return: the close must still free everything
            }
        }
        assertThat(Rig.await(Duration.ofSeconds(10), () -> backend.liveAllocations() == 0 && backend.liveStreams() == 0))
                .as("after close: %d allocations and %d streams left", backend.liveAllocations(), backend.liveStreams())
                .isTrue();
    }

    /** A thread claims a frame, writes half of it and ends without committing; returns its claim. */
    static long claimAndDie(PublishChannel ch) throws InterruptedException {
        AtomicLong claimed = new AtomicLong();
        Thread doomed = new Thread(() -> {
            long seq = ch.tryClaim();
            claimed.set(seq);
            if (seq > 0) {
                ch.buffer().putLong(0, -42);
            }
        }, "doomed-producer");
        doomed.start();
        doomed.join(10_000);
        assertThat(doomed.isAlive()).isFalse();
        return claimed.get();
    }

    /** Offers frames 0..n-1 (ids in the payload), retrying on back-pressure up to a deadline; the sequences. */
    static List<Long> offerAll(PublishChannel ch, int n) {
        List<Long> sequences = new CopyOnWriteArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (int id = 0; id < n; id++) {
            byte[] frame = Rig.frame(id, id * 7L);
            long seq;
            while ((seq = ch.offer(frame, 0, frame.length)) == ClaimStatus.BACK_PRESSURED) {
                assertThat(System.nanoTime() - deadline).as("frame %d back-pressured until the deadline", id).isNegative();
                Thread.yield();
            }
            assertThat(seq).as("offer of frame %d: %s", id, ClaimStatus.describe(seq)).isPositive();
            sequences.add(seq);
        }
        return sequences;
    }

    private static List<Long> ids(int n) {
        List<Long> ids = new java.util.ArrayList<>();
        for (long i = 0; i < n; i++) {
            ids.add(i);
        }
        return ids;
    }
}

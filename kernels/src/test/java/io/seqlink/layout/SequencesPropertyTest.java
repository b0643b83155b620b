package io.seqlink.layout;

import static io.seqlink.testing.Seeded.between;
import static io.seqlink.testing.Seeded.forAll;
import static io.seqlink.testing.Seeded.intBetween;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * Properties of the sequence arithmetic every backend and the channel share. Sequences start at 1 and
 * run up to 2^62 here (the protocol assumes they never wrap).
 */
class SequencesPropertyTest {

    private static final int CASES = 5_000;
    private static final long MAX_SEQ = 1L << 62;

    @Test
    void slotIsFreeExactlyUpToTheClaimLimit() {
        forAll("slotFree/claimLimit", CASES, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, RingGeometry.MAX_SLOTS);
            long slowest = between(r, 0, MAX_SEQ);
            long seq = Math.max(1, slowest + between(r, -2L * slots, 2L * slots));
            boolean free = Sequences.slotFree(seq, slowest, slots);
            assertThat(free).as("seq %d slowest %d slots %d", seq, slowest, slots)
                    .isEqualTo(seq <= Sequences.claimLimit(slowest, slots));
            // the slot's previous tenant is seq - slots: free means it was acknowledged
            assertThat(free).isEqualTo(seq - slots <= slowest);
            assertThat(Sequences.slotFree(Sequences.claimLimit(slowest, slots), slowest, slots)).isTrue();
            assertThat(Sequences.slotFree(Sequences.claimLimit(slowest, slots) + 1, slowest, slots)).isFalse();
        });
    }

    @Test
    void intactIsTheSameAsAtOrAboveTheOldestIntact() {
        forAll("intact/oldestIntact", CASES, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, RingGeometry.MAX_SLOTS);
            long writerBusy = between(r, 1, MAX_SEQ);
            long f = Math.max(1, writerBusy + between(r, -3L * slots, 2));
            long oldest = Sequences.oldestIntact(writerBusy, slots);
            assertThat(oldest).isBetween(1L, writerBusy);
            assertThat(Sequences.intact(f, writerBusy, slots)).as("f %d W %d slots %d", f, writerBusy, slots)
                    .isEqualTo(f >= oldest);
            // intact means: no frame the producer may be writing (<= writerBusy) shares f's slot with a later lap
            if (Sequences.intact(f, writerBusy, slots)) {
                assertThat(f + slots).isGreaterThan(writerBusy);
            }
        });
    }

    @Test
    void lapStartNeverGoesBackAndOnlyPicksFramesTheProducerIsNotWriting() {
        forAll("lapStart", CASES, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, 1 << 12);
            int maxBatch = intBetween(r, 1, slots - 1);
            long published = between(r, 1, MAX_SEQ);
            long next = Math.max(1, published - between(r, -1, 4L * slots));
            long start = Sequences.lapStart(next, published, slots, maxBatch);
            RingGeometry g = RingGeometry.of(slots, 8);
            assertThat(start).isGreaterThanOrEqualTo(next);
            long writerBusy = Sequences.writerBusyAfter(published, maxBatch);
            if (start <= published) {
                // every frame from start to published sits in a slot no frame up to writer_busy is overwriting
                assertThat(published - start + 1).isLessThanOrEqualTo(slots - maxBatch);
                for (long f = start; f <= published; f += Math.max(1, (published - start) / 16)) {
                    assertThat(Sequences.intact(f, writerBusy, slots)).isTrue();
                    int slotOfF = g.slotOf(f);
                    for (long w = published + 1; w <= writerBusy; w++) {
                        // a plain comparison: up to 4,095 per frame, an assertion object each would dominate the run
                        if (g.slotOf(w) == slotOfF) {
                            fail("frame %d shares slot %d with frame %d, which the producer may be writing", f, slotOfF, w);
                        }
                    }
                }
            }
            boolean lapped = next < Sequences.oldestIntact(writerBusy, slots);
            assertThat(start == next).isEqualTo(!lapped);
            if (lapped) {
                // a lapped consumer skips to the oldest frame not being overwritten: missed = start - next
                assertThat(start).isEqualTo(published + maxBatch - slots + 1);
            }
        });
    }

    @Test
    void roundEndStaysInsideTheBatchAndThePublishedRange() {
        forAll("roundEnd", CASES, r -> {
            int maxBatch = intBetween(r, 1, 1 << 16);
            long published = between(r, 0, MAX_SEQ);
            long from = Math.max(1, published - between(r, -2, 3L * maxBatch));
            long end = Sequences.roundEnd(from, published, maxBatch);
            assertThat(end).isLessThanOrEqualTo(published);
            assertThat(end - from + 1).isLessThanOrEqualTo(maxBatch);
            if (from <= published) {
                assertThat(end).isGreaterThanOrEqualTo(from);
                assertThat(end == published || end - from + 1 == maxBatch).isTrue();
            } else {
                assertThat(end).isLessThan(from); // empty round
            }
        });
    }

    /**
     * A model of lossless delivery driven only by {@link Sequences}: a producer claiming with a cached
     * gating sequence and consumers acknowledging in random order. The ring (slot -> frame) must never
     * lose a frame a consumer has not acknowledged, and every consumer must read every frame in order.
     */
    @Test
    void losslessModelNeverOverwritesAnUnacknowledgedFrame() {
        forAll("lossless model", 100, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, 64);
            int consumers = 1 + r.nextInt(4);
            RingGeometry g = RingGeometry.of(slots, 8);
            long[] ring = new long[slots];
            long[] acked = new long[consumers];
            long claimed = 0;
            long cachedSlowest = 0;
            for (int step = 0; step < 4_000; step++) {
                int who = r.nextInt(consumers + 1);
                if (who == consumers) {
                    long next = claimed + 1;
                    if (!Sequences.slotFree(next, cachedSlowest, slots)) {
                        cachedSlowest = min(acked);
                    }
                    if (Sequences.slotFree(next, cachedSlowest, slots)) {
                        long previous = ring[g.slotOf(next)];
                        assertThat(previous).as("slot %d still holds unacknowledged frame %d", g.slotOf(next), previous)
                                .isLessThanOrEqualTo(min(acked));
                        ring[g.slotOf(next)] = next;
                        claimed = next;
                    }
                } else if (acked[who] < claimed) {
                    long upTo = acked[who] + 1 + r.nextInt((int) Math.min(8, claimed - acked[who]));
                    for (long f = acked[who] + 1; f <= upTo; f++) {
                        assertThat(ring[g.slotOf(f)]).as("consumer %d reads frame %d", who, f).isEqualTo(f);
                    }
                    acked[who] = upTo;
                }
            }
        });
    }

    /**
     * A model of latest delivery: the producer never waits; a consumer reads a round, then checks
     * {@code writer_busy} the way the consume step does. Whatever it keeps must be the frame it meant
     * (stamp equal to the sequence), and what it skips plus what it keeps must cover every frame it
     * moved past.
     */
    @Test
    void latestModelKeepsOnlyIntactFramesAndCountsEveryGap() {
        forAll("latest model", 100, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, 32);
            int maxBatch = intBetween(r, 1, slots - 1);
            RingGeometry g = RingGeometry.of(slots, 8);
            long[] stamps = new long[slots];
            long published = 0;
            long next = 1;
            long kept = 0;
            long missed = 0;
            long lastKept = 0;
            Deque<Long> trail = new ArrayDeque<>();
            for (int step = 0; step < 3_000; step++) {
                if (r.nextInt(3) != 0) {
                    int count = 1 + r.nextInt(maxBatch);
                    for (int i = 0; i < count; i++) {
                        published++;
                        stamps[g.slotOf(published)] = published;
                    }
                    continue;
                }
                if (published < next) {
                    continue;
                }
                long from = Sequences.lapStart(next, published, slots, maxBatch);
                missed += from - next;
                long to = Sequences.roundEnd(from, published, 1 + r.nextInt(2 * slots));
                // the producer races ahead while the round is read, within what writer_busy allows
                long racing = r.nextInt(maxBatch + 1);
                long[] read = new long[(int) (to - from + 1)];
                for (long s = from; s <= to; s++) {
                    read[(int) (s - from)] = stamps[g.slotOf(s)];
                    if (racing > 0 && r.nextBoolean()) {
                        published++;
                        stamps[g.slotOf(published)] = published;
                        racing--;
                    }
                }
                long writerBusy = Sequences.writerBusyAfter(published, maxBatch);
                long validFrom = Math.max(from, Sequences.oldestIntact(writerBusy, slots));
                for (long s = from; s <= to; s++) {
                    if (s >= validFrom) {
                        // plain comparisons: one per frame kept, an assertion object each would dominate the run
                        if (read[(int) (s - from)] != s) {
                            fail("frame %d validated but its stamp differs: %d", s, read[(int) (s - from)]);
                        }
                        if (s <= lastKept) {
                            fail("frame %d kept after frame %d", s, lastKept);
                        }
                        lastKept = s;
                        kept++;
                        trail.add(s);
                    } else {
                        missed++;
                    }
                }
                next = to + 1;
                assertThat(kept + missed).as("kept + missed covers every frame passed").isEqualTo(next - 1);
            }
            // gaps between kept frames (and before the first) equal the missed count up to the last kept
            long gaps = 0;
            long previous = 0;
            for (long s : trail) {
                gaps += s - previous - 1;
                previous = s;
            }
            assertThat(gaps + (next - 1 - previous)).isEqualTo(missed);
        });
    }

    private static long min(long[] values) {
        long m = Long.MAX_VALUE;
        for (long v : values) {
            m = Math.min(m, v);
        }
        return m;
    }
}

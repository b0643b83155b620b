package io.seqlink.channel.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.layout.RingGeometry;
import org.junit.jupiter.api.Test;

/**
 * The padding count a consumer asks for a round it counts after the round's acknowledgement reached the producer
 * (a device listener that acknowledges in its kernel): by then the producer may have claimed, and given back, the
 * same slot one lap later. With one mark per slot that lap's mark would replace the round's, and the consumer would
 * count a padding frame as delivered.
 */
class AbandonedSequencesTest {

    private static final int SLOTS = 8;

    @Test
    void aRoundsPaddingStillCountsOnceTheSameSlotIsGivenBackALapLater() {
        AbandonedSequences abandoned = new AbandonedSequences(RingGeometry.of(SLOTS, 64));
        abandoned.mark(5);
        abandoned.mark(5 + SLOTS); // the producer a lap ahead: its claim in the same slot given back too

        assertThat(abandoned.count(1, SLOTS)).as("the round 1..8, counted after its ack").isEqualTo(1);
        assertThat(abandoned.count(5, 5)).isEqualTo(1);
        assertThat(abandoned.count(5 + SLOTS, 5 + SLOTS)).isEqualTo(1);
        assertThat(abandoned.count(SLOTS + 1, 2 * SLOTS)).isEqualTo(1);
        assertThat(abandoned.total()).isEqualTo(2);
    }

    @Test
    void rangesWithoutPaddingCountNothingWhateverTheMarksAround() {
        AbandonedSequences abandoned = new AbandonedSequences(RingGeometry.of(SLOTS, 64));
        abandoned.mark(3);
        abandoned.mark(3 + 2 * SLOTS); // two laps later: the first mark's place again
        assertThat(abandoned.count(4, 3 + SLOTS)).isZero();
        assertThat(abandoned.count(3 + 2 * SLOTS, 3 + 2 * SLOTS)).isEqualTo(1);
        assertThat(abandoned.count(10, 9)).as("an empty range").isZero();
    }
}

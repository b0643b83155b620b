package io.seqlink.layout;

import static io.seqlink.testing.Seeded.between;
import static io.seqlink.testing.Seeded.forAll;
import static io.seqlink.testing.Seeded.intBetween;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.channel.ChannelSpec;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** Properties of the ring's shape: where a sequence lives and that slots never overlap. */
class RingGeometryPropertyTest {

    private static final int CASES = 5_000;

    @Test
    void strideIsTheSmallestLineMultipleThatHoldsHeaderAndPayload() {
        forAll("strideFor", CASES, r -> {
            long slotBytes = between(r, 1, RingGeometry.MAX_SLOT_BYTES);
            long stride = RingGeometry.strideFor(slotBytes);
            assertThat(stride % 128).isZero();
            assertThat(stride).isGreaterThanOrEqualTo(SlotHeader.BYTES + slotBytes);
            assertThat(stride - 128).isLessThan(SlotHeader.BYTES + slotBytes);
        });
    }

    @Test
    void everySequenceMapsIntoItsOwnSlotAndLapsReturnToIt() {
        forAll("slotOf/offsetOf", CASES, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, RingGeometry.MAX_SLOTS);
            long slotBytes = between(r, 1, 1 << 20);
            RingGeometry g = RingGeometry.of(slots, slotBytes);
            long s = between(r, 1, 1L << 62);
            int slot = g.slotOf(s);
            assertThat(slot).isBetween(0, slots - 1);
            assertThat(g.slotOf(s + slots)).isEqualTo(slot);
            if (s > slots) {
                assertThat(g.slotOf(s - slots)).isEqualTo(slot);
            }
            assertThat(g.slotOf(s + 1)).isEqualTo((slot + 1) % slots);
            assertThat(g.offsetOf(s)).isEqualTo(slot * g.stride());
            assertThat(g.offsetOf(s) % 128).isZero();
            assertThat(g.payloadOffsetOf(s)).isEqualTo(g.offsetOf(s) + SlotHeader.BYTES);
            assertThat(g.payloadOffsetOf(s) + slotBytes).isLessThanOrEqualTo(g.offsetOf(s) + g.stride());
            assertThat(g.offsetOf(s) + g.stride()).isLessThanOrEqualTo(g.ringBytes());
        });
    }

    @Test
    void anyWindowOfSlotsConsecutiveSequencesUsesEverySlotOnce() {
        forAll("window bijection", 2_000, r -> {
            int slots = intBetween(r, RingGeometry.MIN_SLOTS, 4096);
            RingGeometry g = RingGeometry.of(slots, between(r, 1, 4096));
            long first = between(r, 1, 1L << 62);
            BitSet used = new BitSet(slots);
            for (long s = first; s < first + slots; s++) {
                int slot = g.slotOf(s);
                assertThat(used.get(slot)).as("slot %d used twice in window from %d", slot, first).isFalse();
                used.set(slot);
            }
            assertThat(used.cardinality()).isEqualTo(slots);
        });
    }

    @Test
    void constructorRejectsWhatTheSpecRejectsAndAcceptsTheRest() {
        forAll("geometry vs spec", CASES, r -> {
            int slots = intBetween(r, -4, RingGeometry.MAX_SLOTS + 4);
            long slotBytes = between(r, -4, RingGeometry.MAX_SLOT_BYTES + 4);
            boolean geometryOk = slots >= RingGeometry.MIN_SLOTS && slots <= RingGeometry.MAX_SLOTS
                    && slotBytes >= 1 && slotBytes <= RingGeometry.MAX_SLOT_BYTES;
            if (geometryOk) {
                RingGeometry g = RingGeometry.of(slots, slotBytes);
                assertThat(g.ringBytes()).isEqualTo(g.stride() * slots);
            } else {
                assertThatThrownBy(() -> RingGeometry.of(slots, slotBytes)).isInstanceOf(IllegalArgumentException.class);
            }
            ChannelSpec spec = ChannelSpec.builder("g").producer(0).consumers(1).slots(slots).slotBytes(slotBytes)
                    .maxPublishBatch(1).build();
            boolean specOk = spec.validate("").isEmpty();
            if (specOk) {
                assertThat(geometryOk).isTrue();
                assertThat(spec.geometry().ringBytes()).isLessThanOrEqualTo(RingGeometry.MAX_RING_BYTES);
            } else if (geometryOk) {
                assertThat(RingGeometry.of(slots, slotBytes).ringBytes()).isGreaterThan(RingGeometry.MAX_RING_BYTES);
            }
        });
    }

    @Test
    void strideMismatchIsRejected() {
        assertThatThrownBy(() -> new RingGeometry(4, 64, 64)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stride must be 128");
    }
}

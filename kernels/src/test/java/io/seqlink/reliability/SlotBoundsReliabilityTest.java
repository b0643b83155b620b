package io.seqlink.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.topology.Transport;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No write can pass a slot's bounds (security): the producer-side cases {@code BadInputTest}
 * does not cover ({@code commitDevice} beyond the slot, writes through {@code buffer()} past its end),
 * a corrupt length word in a slot header (the consumer never reads past its slot), and the SPI: a
 * stream copy or word write outside an allocation is refused and writes nothing, on the emulated
 * backend. {@code commit}, {@code offer(byte[])} and {@code offer(ByteBuffer)} beyond the slot are in
 * {@code io.seqlink.channel.BadInputTest}.
 */
class SlotBoundsReliabilityTest {

    private static final int SLOT = 64;
    private SeqlinkRuntime rt;

    @BeforeEach
    void open() {
        rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                .verifier(VerifierSettings.defaults().withEnabled(false)).open();
    }

    @AfterEach
    void close() {
        rt.close();
    }

    private PublishChannel channel(String name, Transport transport) {
        return rt.openChannel(ChannelSpec.builder(name).producer(0).consumers(1).slots(4).slotBytes(SLOT).transport(transport)
                .build());
    }

    @Test
    void commitDeviceBeyondTheSlotIsRejectedAndWritesNoLength() {
        PublishChannel ch = channel("device-commit", Transport.AUTO);
        assertThat(ch.tryClaim()).isEqualTo(1);
        ChannelSnapshot before = ch.snapshot();
        for (int bad : new int[] {SLOT + 1, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> ch.commitDevice(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("commitDevice(length): length " + bad + " is outside 0.." + SLOT)
                    .hasMessageContaining("raise the channel's slot-size");
        }
        ChannelSnapshot after = ch.snapshot();
        assertThat(after.claimed()).isEqualTo(before.claimed());
        assertThat(after.published()).isZero();
        assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
        // the claim is still open: a length at the bound is taken, and the consumer sees exactly it
        ch.commitDevice(SLOT);
        assertThat(ch.publish()).isEqualTo(1);
        assertThat(receivedLengths(ch, 1)).containsExactly(SLOT);
    }

    @Test
    void theClaimedBufferEndsAtTheSlotAndAWritePastItThrowsWithoutTouchingTheNextSlot() {
        PublishChannel ch = channel("buffer-bounds", Transport.AUTO);
        assertThat(ch.tryClaim()).isEqualTo(1);
        ByteBuffer first = ch.buffer();
        assertThat(first.capacity()).isEqualTo(SLOT);
        assertThat(first.limit()).isEqualTo(SLOT);
        assertThatThrownBy(() -> first.put(SLOT, (byte) 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> first.putLong(SLOT - 7, 1L)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> first.position(SLOT).put((byte) 1)).isInstanceOf(java.nio.BufferOverflowException.class);
        first.clear();
        for (int i = 0; i < SLOT; i++) {
            first.put(i, (byte) 0x5A);
        }
        ch.commit(SLOT);
        ch.publish();
        assertThat(ch.tryClaim()).isEqualTo(2);
        ByteBuffer second = ch.buffer();
        for (int i = 0; i < SLOT; i++) {
            assertThat(second.get(i)).as("byte %d of the next slot's staging", i).isZero();
        }
        ch.commit(0);
        ch.publish();
        assertThat(receivedLengths(ch, 2)).containsExactly(SLOT, 0);
    }

    /**
     * A length word beyond the slot (or negative) written straight into a published slot's header
     * through the SPI, as a buggy or hostile producer kernel could: the consumer clamps it to the slot,
     * so neither its copy nor the listener's view passes the slot, in copy and in direct read mode. A
     * negative length never describes a frame: it is what padding carries (a claim given back), so the
     * consumer skips it and counts it as padding. (The publish step writes the committed, checked length
     * into the header; the corrupt word is written after it, before the consumer looks.)
     */
    @ParameterizedTest
    @EnumSource(ReadMode.class)
    void aCorruptLengthWordInASlotHeaderNeverMakesTheConsumerReadPastTheSlot(ReadMode readMode) {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder("corrupt-" + readMode.name().toLowerCase()).producer(0).consumers(1)
                .slots(4).slotBytes(SLOT).readMode(readMode).transport(Transport.PEER_ATOMIC).build());
        RingGeometry g = ch.spec().geometry();
        long[] corrupt = {SLOT + 1, 1L << 40, Long.MAX_VALUE, -1, Long.MIN_VALUE};
        List<Integer> lengths = new ArrayList<>();
        for (long length : corrupt) {
            long seq = ch.tryClaim();
            assertThat(seq).isPositive();
            ch.buffer().put(0, (byte) 7);
            ch.commit(SLOT);
            ch.publish();
            ch.producerStream().writeValue(ch.ring(), g.offsetOf(seq) + SlotHeader.LENGTH, length);
            ch.producerStream().synchronize();
            lengths.addAll(receivedLengths(ch, length < 0 ? 0 : 1));
        }
        assertThat(lengths).containsExactly(SLOT, SLOT, SLOT);
        assertThat(receivedLengths(ch, 1)).as("nothing more comes").isEmpty();
        assertThat(ch.consumer(1).snapshot().paddingSkipped()).as("the two negative lengths, skipped as padding").isEqualTo(2);
        assertThat(ch.consumer(1).acknowledged()).isEqualTo(5);
        assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
    }

    // ---- the SPI: stream copies and word writes outside an allocation ---------------------------

    /** An out-of-bounds call on a stream, between a 256-byte source and a 128-byte destination. */
    interface OutOfBounds {
        void call(DeviceStream stream, MappedBuffer src, MappedBuffer dst);
    }

    static Stream<Arguments> outOfBoundsCalls() {
        return Stream.of(
                Arguments.of("copy one byte past the destination", (OutOfBounds) (s, src, dst) -> s.copy(src, 0, dst, 0, 129)),
                Arguments.of("copy the tail past the destination", (OutOfBounds) (s, src, dst) -> s.copy(src, 0, dst, 64, 128)),
                Arguments.of("copy before the destination", (OutOfBounds) (s, src, dst) -> s.copy(src, 0, dst, -8, 16)),
                Arguments.of("copy past the source", (OutOfBounds) (s, src, dst) -> s.copy(src, 200, dst, 0, 64)),
                Arguments.of("copy a negative size", (OutOfBounds) (s, src, dst) -> s.copy(src, 0, dst, 0, -1)),
                Arguments.of("copy a size that overflows the offset", (OutOfBounds) (s, src, dst) -> s.copy(src, 0, dst, 8, Long.MAX_VALUE)),
                Arguments.of("write the word after the allocation", (OutOfBounds) (s, src, dst) -> s.writeValue(dst, 128, -1L)),
                Arguments.of("write a word straddling its end", (OutOfBounds) (s, src, dst) -> s.writeValue(dst, 124, -1L)),
                Arguments.of("write the word before it", (OutOfBounds) (s, src, dst) -> s.writeValue(dst, -8, -1L)));
    }

    /**
     * Host-visible memory on a fresh emulated device (one per case, so no case is refused only because
     * an earlier one broke the device): a copy or word write outside the destination is refused, by
     * the call or at the latest by the next synchronisation, and changes no byte of the destination or
     * of the allocation right after it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfBoundsCalls")
    void aStreamCopyOrWordWriteOutsideAnAllocationIsRefusedAndWritesNothing(String name, OutOfBounds call) {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            Device device = backend.device(0);
            MappedBuffer src = device.allocateMapped(256);
            MappedBuffer dst = device.allocateMapped(128);
            MappedBuffer neighbour = device.allocateMapped(128);
            DeviceStream stream = device.newStream("bounds");
            fill(src, (byte) 0x11);
            fill(dst, (byte) 0x22);
            fill(neighbour, (byte) 0x33);
            assertThatThrownBy(() -> {
                call.call(stream, src, dst);
                stream.synchronize();
            }).as(name).isInstanceOf(RuntimeException.class);
            assertUnchanged(dst, (byte) 0x22, "destination");
            assertUnchanged(neighbour, (byte) 0x33, "neighbour");
            assertUnchanged(src, (byte) 0x11, "source");
        }
    }

    private static void fill(MappedBuffer m, byte value) {
        ByteBuffer b = m.byteBuffer();
        for (int i = 0; i < m.bytes(); i++) {
            b.put(i, value);
        }
    }

    private static void assertUnchanged(MappedBuffer m, byte value, String what) {
        ByteBuffer b = m.byteBuffer();
        for (int i = 0; i < m.bytes(); i++) {
            if (b.get(i) != value) {
                throw new AssertionError(what + ": byte " + i + " is " + b.get(i) + ", was " + value);
            }
        }
    }

    /** Polls consumer 1 by hand until {@code n} frames arrived; their lengths and payload limits (which must agree). */
    private static List<Integer> receivedLengths(PublishChannel ch, int n) {
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < 1_000 && lengths.size() < n; i++) {
            ch.consumer(1).poll(f -> {
                assertThat(f.payload().limit()).isEqualTo(f.length()).isLessThanOrEqualTo(SLOT);
                assertThat(f.payload().capacity()).isEqualTo(SLOT);
                lengths.add(f.length());
            }, 16);
        }
        return lengths;
    }
}

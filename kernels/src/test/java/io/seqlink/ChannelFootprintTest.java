package io.seqlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.Violation;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.topology.Transport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every allocation a channel makes is counted before any is made: the producer's ring, staging ring,
 * mirror and doorbells, and per consumer its block, mirror, local ring, replica and the host ring its host
 * listener reads from; and pinned memory is checked against what the host has available, on every backend.
 */
class ChannelFootprintTest {

    private static final long RING = 16 * (4096 + 128); // 16 slots of 4 KB: 4096 + 64 B header, in 128-byte lines

    @Test
    void aPullingConsumerInCopyModeCountsItsLocalRingAndItsHostRing() {
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1, 2).slots(16).slotBytes(4096).build();
        assertThat(spec.geometry().ringBytes()).isEqualTo(RING);
        ChannelFootprint f = ChannelFootprint.of(spec, Map.of(1, Transport.PEER_ATOMIC, 2, Transport.PEER_ATOMIC));
        assertThat(f.deviceBytes()).containsExactlyInAnyOrderEntriesOf(Map.of(0, RING + ControlBlock.BYTES,
                1, RING + ConsumerBlock.BYTES, 2, RING + ConsumerBlock.BYTES));
        long doorbells = 8L * 2 * 16;
        assertThat(f.hostRings()).isEqualTo(2 * RING);
        assertThat(f.pinnedBytes()).as("staging, mirror, doorbells, two block mirrors, two host rings")
                .isEqualTo(RING + ControlBlock.BYTES + doorbells + 2L * ConsumerBlock.BYTES + 2 * RING);
    }

    @Test
    void pushTransportsCountTheirReplicaWhereItLives() {
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1, 2).slots(16).slotBytes(4096)
                .readMode(ReadMode.DIRECT).armedRounds(false).build();
        ChannelFootprint f = ChannelFootprint.of(spec, Map.of(1, Transport.PEER_COPY, 2, Transport.HOST_STAGED));
        assertThat(f.deviceBytes().get(1)).as("peer-copy: the replica on the consumer's device")
                .isEqualTo(ConsumerBlock.BYTES + RING + ControlBlock.BYTES);
        assertThat(f.deviceBytes().get(2)).as("host-staged, direct: nothing but the block").isEqualTo(ConsumerBlock.BYTES);
        assertThat(f.hostRings()).as("a host ring for the peer-copy consumer; the host-staged one reads its replica in place")
                .isEqualTo(RING);
        assertThat(f.pinnedBytes()).isEqualTo(RING + ControlBlock.BYTES + 2L * ConsumerBlock.BYTES
                + (RING + ControlBlock.BYTES) + RING);
    }

    @Test
    void aChannelWhosePinnedMemoryTheHostCannotGiveIsRefusedNamingSlotSize() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1).slots(16).slotBytes(4096).build();
            long pinned = ChannelFootprint.of(spec, Map.of()).pinnedBytes();
            assertThat(ChannelLimits.check(spec, Map.of(), rt.backend(), "seqlink.channels.frames.", pinned)).isEmpty();
            List<Violation> v = ChannelLimits.check(spec, Map.of(), rt.backend(), "seqlink.channels.frames.", pinned - 1);
            assertThat(v).singleElement().satisfies(x -> {
                assertThat(x.property()).isEqualTo("seqlink.channels.frames.slot-size");
                assertThat(x.problem()).contains("of pinned host memory").contains("the producer's staging ring")
                        .contains("host rings host listeners read from (one per consumer)");
                assertThat(x.fix()).contains("lower slots or slot-size");
            });
        }
    }

    @Test
    void channelsThatFitAloneButNotTogetherAreRefusedNamingThemAll() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            ChannelSpec a = ChannelSpec.builder("a").producer(0).consumers(1).slots(16).slotBytes(4096).build();
            ChannelSpec b = ChannelSpec.builder("b").producer(1).consumers(0).slots(16).slotBytes(4096).build();
            long one = ChannelFootprint.of(a, Map.of()).pinnedBytes();
            assertThat(ChannelLimits.checkTogether(List.of(a, b), List.of("a.", "b."), rt.backend(), 2 * one)).isEmpty();
            assertThat(ChannelLimits.checkTogether(List.of(a, b), List.of("a.", "b."), rt.backend(), 2 * one - 1))
                    .singleElement().satisfies(x -> {
                        assertThat(x.property()).isEqualTo("b.slot-size");
                        assertThat(x.problem()).contains("the 2 channels together need").contains("'a'").contains("'b'");
                    });
        }
    }

    @Test
    void adviceNamesTheBuilderCallInPlainJavaAndTheGivenNamesOtherwise() {
        EmulatedTopology pcie = EmulatedTopology.builder(2).link(0, 1, io.seqlink.backend.emulated.LinkMode.PCIE_PEER).build();
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1).build();
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(pcie).channel(spec).open()) {
            assertThat(rt.topology().link(0, 1).orElseThrow().reason()).contains("ChannelSpec.Builder.transport(Transport.HOST_STAGED)");
        }
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(pcie).channel(spec)
                .settingNames(channel -> "channels." + channel + ".transport: host-staged").open()) {
            assertThat(rt.topology().link(0, 1).orElseThrow().reason()).contains("channels.<name>.transport: host-staged")
                    .doesNotContain("ChannelSpec.Builder");
        }
    }
}

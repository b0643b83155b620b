package io.seqlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.Violation;
import io.seqlink.channel.producer.RingPlace;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.security.SharedSecret;
import io.seqlink.topology.Transport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every allocation a channel makes is counted before any is made: the producer's ring, staging ring,
 * mirror and doorbells, and per consumer its block, mirror, local ring, replica and the host ring its host
 * listener reads from; and pinned memory is checked against what the host has available, on every backend. Wherever
 * the channel places its ring (device memory, pinned host memory, a shared region), the footprint is what the opened
 * channel allocates on the emulated backend, its consumers' host listeners subscribed.
 */
class ChannelFootprintTest {

    private static final long RING = 16 * (4096 + 128); // 16 slots of 4 KB: 4096 + 64 B header, in 128-byte lines
    private static final SharedSecret SECRET = SharedSecret.of("a secret of at least sixteen bytes", "test.secret");

    @TempDir
    Path tmp;

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
    void aRingInDeviceMemoryIsCountedAsTheChannelAllocatesIt() {
        // consumer 1 named a host listener (the publish step pushes into a replica for it), consumer 2 not (staged)
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.DEVICE, ChannelSpec.builder("frames").producer(0).consumers(1, 2)
                .hostListeners(1).slots(16).slotBytes(4096).build());
    }

    @Test
    void aHostRingIsCountedAsTheChannelAllocatesIt() {
        // every consumer a host listener over same-device or peer-atomic: the ring in pinned host memory, no staging
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.PINNED_HOST, ChannelSpec.builder("frames").producer(0)
                .consumers(0, 1).hostListeners(0, 1).slots(16).slotBytes(4096).build());
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.PINNED_HOST, ChannelSpec.builder("frames").producer(0)
                .consumers(0, 1).hostListeners(0, 1).readMode(ReadMode.DIRECT).slots(16).slotBytes(4096).build());
    }

    @Test
    void aRingInTheSharedRegionIsCountedAsTheChannelAllocatesItTheRegionPinnedWhole() {
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.SHARED_REGION, ChannelSpec.builder("frames").producer(0)
                .consumers(1).hostListeners(1).slots(16).slotBytes(4096).share(ChannelShare.of(tmp.resolve("host-listener"), SECRET))
                .build());
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.SHARED_REGION, ChannelSpec.builder("frames").producer(0)
                .slots(16).slotBytes(4096).share(ChannelShare.of(tmp.resolve("no-consumer"), SECRET)).build());
    }

    @Test
    void aSharedChannelWithItsRingInDeviceMemoryCountsTheRegionItPushesInto() {
        assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind.DEVICE, ChannelSpec.builder("frames").producer(0).consumers(1)
                .slots(16).slotBytes(4096).share(ChannelShare.of(tmp.resolve("device-consumer"), SECRET)).build());
    }

    /**
     * Opens {@code spec} on three emulated devices and subscribes a host listener on each consumer: the device memory of
     * each device, the pinned memory allocated and the shared mappings addressed are then what its footprint says, its
     * ring in {@code place}, counted with the transports the channel got, and with none decided (as the runtime's
     * validation counts).
     */
    private static void assertFootprintIsWhatTheChannelAllocates(RingPlace.Kind place, ChannelSpec spec) {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(3)).open()) {
            EmulatedBackend backend = (EmulatedBackend) rt.backend();
            long[] deviceBefore = deviceUsed(backend);
            long mappedBefore = backend.liveMappedBytes();
            long sharedBefore = backend.liveSharedBytes();
            PublishChannel ch = rt.openChannel(spec);
            Map<Integer, Transport> transports = new LinkedHashMap<>();
            for (int c : spec.consumers()) {
                transports.put(c, ch.consumer(c).transport());
                ch.consumer(c).subscribe(frame -> { });
            }
            ChannelFootprint f = ChannelFootprint.of(spec, transports);
            assertThat(f.place()).isEqualTo(place);
            long[] deviceAfter = deviceUsed(backend);
            long deviceAll = 0;
            for (int d = 0; d < deviceAfter.length; d++) {
                long used = deviceAfter[d] - deviceBefore[d];
                deviceAll += used;
                assertThat(f.deviceBytes().getOrDefault(d, 0L)).as("device %d's memory, transports %s", d, transports)
                        .isEqualTo(used);
            }
            long mapped = backend.liveMappedBytes() - mappedBefore;
            long shared = backend.liveSharedBytes() - sharedBefore;
            assertThat(f.pinnedBytes()).as("pinned: %d B allocated, %d B of shared region, transports %s", mapped, shared,
                    transports).isEqualTo(mapped + shared);
            assertThat(f.sharedRegion()).as("the shared region").isEqualTo(shared);
            assertThat(f.totalBytes()).as("the direct memory the emulated backend takes").isEqualTo(mapped + deviceAll);
            assertThat(ChannelFootprint.of(spec, Map.of())).as("counted with no transport decided, as validation counts")
                    .isEqualTo(f);
        }
    }

    private static long[] deviceUsed(EmulatedBackend backend) {
        long[] used = new long[backend.deviceCount()];
        for (int d = 0; d < used.length; d++) {
            Device.MemoryInfo info = ((Backend) backend).device(d).memoryInfo();
            used[d] = info.totalBytes() - info.freeBytes();
        }
        return used;
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
    void aHostRingRefusedForPinnedMemoryNamesItsRingNotAStagingRing() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open()) {
            ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(0, 1).hostListeners(0, 1).slots(16)
                    .slotBytes(4096).build();
            long pinned = ChannelFootprint.of(spec, Map.of()).pinnedBytes();
            assertThat(ChannelLimits.check(spec, Map.of(), rt.backend(), "seqlink.channels.frames.", pinned - 1))
                    .singleElement().satisfies(x -> assertThat(x.problem()).contains("the ring of " + RING + " B, in pinned host memory")
                            .doesNotContain("staging"));
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

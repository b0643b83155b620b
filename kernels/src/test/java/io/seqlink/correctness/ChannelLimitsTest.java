package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.ReadMode;
import io.seqlink.layout.RingGeometry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A channel is checked against the backend's real limits before anything is
 * allocated, and refused naming {@code slot-size} with the largest value that fits: a ring above the
 * 2 GiB - 1 B a pinned host buffer can span (64 x 64 MB, 2 x 1 GB), and a ring the JVM's direct memory
 * (where the emulated backend keeps its memory) cannot hold. The runtime stays usable. A channel is counted with its
 * ring where it will be: a host ring (every consumer a host listener) takes no device ring, staging ring or host rings
 * of its consumers.
 */
class ChannelLimitsTest {

    @Test
    void aRingAboveTwoGigabytesIsRefusedBeforeAnythingIsAllocated() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            EmulatedBackend backend = Rig.emulated(rt);
            int before = backend.liveAllocations();
            assertThatThrownBy(() -> rt.openChannel(ChannelSpec.builder("huge").producer(0).consumers(1).slots(64)
                    .slotBytes(64L << 20).build())).isInstanceOfSatisfying(InvalidChannelSpecException.class, e ->
                    assertThat(e.violations()).anySatisfy(v -> {
                        assertThat(v.property()).isEqualTo("slot-size");
                        assertThat(v.problem()).contains("4294975488 B").contains("2147483647 B (2 GiB - 1 B)");
                        assertThat(v.fix()).contains("lower slot-size to at most 33554240B for 64 slots");
                    }));
            assertThatThrownBy(() -> rt.openChannel(ChannelSpec.builder("two-gigabytes").producer(0).consumers(1).slots(2)
                    .slotBytes(1L << 30).build())).isInstanceOfSatisfying(InvalidChannelSpecException.class, e ->
                    assertThat(e.violations()).anySatisfy(v -> {
                        assertThat(v.property()).isEqualTo("slot-size");
                        assertThat(v.problem()).contains("outside 1 B to " + RingGeometry.MAX_SLOT_BYTES + " B");
                    }));
            assertThat(backend.liveAllocations()).as("nothing allocated").isEqualTo(before);
            assertThat(rt.channels()).isEmpty();
            assertThat(rt.openChannel(Rig.channel("fine", 0, 1).build()).offer(new byte[8], 0, 8)).isEqualTo(1);
        }
    }

    @Test
    void aChannelTheDirectMemoryCannotHoldIsRefusedBeforeAnythingIsAllocated() {
        // rings of 1 GiB - 128 B (two slots): the producer's ring and staging, and one copy ring per consumer device
        long slotBytes = (1L << 29) - 64;
        long ring = RingGeometry.of(2, slotBytes).ringBytes();
        long directMax;
        try (SeqlinkRuntime probe = Rig.runtime(2).open()) {
            AllocationLimits limits = probe.backend().limits();
            assertThat(limits.inDirectMemory()).isTrue();
            assertThat(limits.maxMappedBytes()).as("one direct buffer, aligned").isEqualTo(2147483392L);
            directMax = limits.directBytesMax();
        }
        int consumers = (int) Math.min(60, directMax / ring); // with the producer's two rings, more than the limit
        Integer[] devices = new Integer[consumers];
        for (int i = 0; i < consumers; i++) {
            devices[i] = i + 1;
        }
        try (SeqlinkRuntime rt = Rig.runtime(EmulatedTopology.allNvlink(consumers + 1)).open()) {
            EmulatedBackend backend = Rig.emulated(rt);
            int before = backend.liveAllocations();
            ChannelSpec spec = ChannelSpec.builder("too-much").producer(0).consumers(devices).slots(2).slotBytes(slotBytes).build();
            assertThat((consumers + 2) * ring).as("the test needs a channel above the direct memory limit").isGreaterThan(directMax);
            assertThatThrownBy(() -> rt.openChannel(spec)).isInstanceOfSatisfying(InvalidChannelSpecException.class, e ->
                    assertThat(e.violations()).anySatisfy(v -> {
                        assertThat(v.property()).isEqualTo("slot-size");
                        assertThat(v.problem()).contains("the JVM's direct memory");
                        assertThat(v.fix()).contains("-XX:MaxDirectMemorySize");
                    }));
            assertThat(backend.liveAllocations()).as("nothing allocated").isEqualTo(before);
            assertThat(rt.validate(spec, "seqlink.channels.too-much.")).anySatisfy(v ->
                    assertThat(v.property()).isEqualTo("seqlink.channels.too-much.slot-size"));
        }
    }

    @Test
    void aHostRingIsCountedWithoutTheDeviceRingStagingRingAndHostRingsItDoesNotHave() {
        long slotBytes = (1L << 29) - 64; // rings of 1 GiB - 128 B, as above
        long ring = RingGeometry.of(2, slotBytes).ringBytes();
        long directFree;
        try (SeqlinkRuntime probe = Rig.runtime(2).open()) {
            directFree = probe.backend().limits().directBytesFree();
        }
        Assumptions.assumeTrue(directFree > 2 * ring, "the JVM's free direct memory holds two rings");
        int consumers = (int) Math.min(60, directFree / ring); // with a device ring, its staging and their host rings: too much
        Integer[] devices = new Integer[consumers];
        for (int i = 0; i < consumers; i++) {
            devices[i] = i + 1;
        }
        try (SeqlinkRuntime rt = Rig.runtime(EmulatedTopology.allNvlink(consumers + 1)).open()) {
            ChannelSpec.Builder spec = ChannelSpec.builder("host-ring").producer(0).consumers(devices).slots(2).slotBytes(slotBytes)
                    .readMode(ReadMode.DIRECT);
            assertThat(rt.validate(spec.build(), "seqlink.channels.host-ring.")).as("the ring in device memory")
                    .anySatisfy(v -> assertThat(v.problem()).contains("the JVM's direct memory"));
            assertThat(rt.validate(spec.hostListeners(devices).build(), "seqlink.channels.host-ring."))
                    .as("the ring in pinned host memory, read in place").isEmpty();
        }
    }
}

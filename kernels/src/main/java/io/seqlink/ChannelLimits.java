package io.seqlink;

import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Violation;
import io.seqlink.topology.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A channel spec against what its backend can really allocate, before anything is: the largest single
 * device and pinned allocation, each device's free memory, the host memory available to pin, and (on the
 * emulated backend) the JVM's free direct memory. Counts everything the channel will allocate, its ring
 * where the channel will place it, the consumers' host rings (made later, when a host listener subscribes)
 * and the armed rounds' doorbells included: {@link ChannelFootprint}. Static and stateless: safe from any thread.
 */
final class ChannelLimits {

    private static final long MIB = 1 << 20;

    private ChannelLimits() {
    }

    /**
     * Every limit {@code spec} breaks on {@code backend}; {@code transports} holds the consumers'
     * transports when they are decided (missing ones count as pulling, no replica).
     */
    static List<Violation> check(ChannelSpec spec, Map<Integer, Transport> transports, Backend backend, String prefix) {
        return check(spec, transports, backend, prefix, HostMemory.availableBytes());
    }

    /** {@link #check(ChannelSpec, Map, Backend, String)} with the host's available memory given ({@code -1}: unknown). */
    static List<Violation> check(ChannelSpec spec, Map<Integer, Transport> transports, Backend backend, String prefix,
            long hostAvailableBytes) {
        List<Violation> v = new ArrayList<>();
        long ring = spec.geometry().ringBytes();
        AllocationLimits limits = backend.limits();
        String property = prefix + "slot-size";
        String fix = "lower slots or slot-size";
        if (ring > limits.maxMappedBytes()) {
            v.add(new Violation(property, "the ring of " + ring + " B is larger than the " + limits.maxMappedBytes()
                    + " B the " + backend.kind().name().toLowerCase() + " backend can allocate as one pinned host buffer "
                    + "(the producer's staging ring, or its ring in host memory, is one)", fix + " so that slots x (slot size + 64 B, in 128-byte lines) stays at "
                    + "most " + limits.maxMappedBytes() + " B"));
        } else if (ring > limits.maxDeviceBytes()) {
            v.add(new Violation(property, "the ring of " + ring + " B is larger than the " + limits.maxDeviceBytes()
                    + " B the backend can allocate on a device in one piece", fix));
        }
        if (!v.isEmpty()) {
            return v;
        }
        ChannelFootprint footprint = ChannelFootprint.of(spec, transports);
        for (Map.Entry<Integer, Long> e : footprint.deviceBytes().entrySet()) {
            Device.MemoryInfo info = backend.device(e.getKey()).memoryInfo();
            if (e.getValue() > info.freeBytes()) {
                v.add(new Violation(property, "the channel needs " + mib(e.getValue()) + " of memory on device " + e.getKey()
                        + ", which has " + mib(info.freeBytes()) + " free of " + mib(info.totalBytes()), fix
                        + ", or free memory on device " + e.getKey()));
            }
        }
        if (hostAvailableBytes >= 0 && footprint.pinnedBytes() > hostAvailableBytes) {
            v.add(new Violation(property, "the channel needs " + mib(footprint.pinnedBytes()) + " of pinned host memory ("
                    + pinnedParts(spec, footprint) + "), and the host has " + mib(hostAvailableBytes) + " available",
                    fix + ", or free host memory"));
        }
        if (limits.inDirectMemory() && footprint.totalBytes() > limits.directBytesFree()) {
            v.add(new Violation(property, "the channel needs " + mib(footprint.totalBytes()) + " of " + limits.where()
                    + " (its device rings, and " + mib(footprint.pinnedBytes()) + " of pinned memory: "
                    + pinnedParts(spec, footprint) + "), and " + mib(limits.directBytesFree()) + " of its "
                    + mib(limits.directBytesMax()) + " are free", fix + ", or raise -XX:MaxDirectMemorySize"));
        }
        return v;
    }

    /**
     * What the channels of {@code specs} break together that none breaks alone: the pinned host memory, each
     * device's memory and the JVM's direct memory summed over all of them, as one violation under the
     * {@code slot-size} of the last channel (named by {@code prefixes}, in order), naming every channel.
     */
    static List<Violation> checkTogether(List<ChannelSpec> specs, List<String> prefixes, Backend backend,
            long hostAvailableBytes) {
        if (specs.size() < 2) {
            return List.of();
        }
        Map<Integer, Long> device = new java.util.LinkedHashMap<>();
        long pinned = 0;
        long total = 0;
        List<String> parts = new ArrayList<>();
        for (ChannelSpec spec : specs) {
            ChannelFootprint f = ChannelFootprint.of(spec, Map.of());
            f.deviceBytes().forEach((d, b) -> device.merge(d, b, Long::sum));
            pinned += f.pinnedBytes();
            total += f.totalBytes();
            parts.add("'" + spec.name() + "' " + mib(f.pinnedBytes()));
        }
        String property = prefixes.get(prefixes.size() - 1) + "slot-size";
        String fix = "lower slots or slot-size of some of these channels";
        List<Violation> v = new ArrayList<>();
        if (hostAvailableBytes >= 0 && pinned > hostAvailableBytes) {
            v.add(new Violation(property, "the " + specs.size() + " channels together need " + mib(pinned)
                    + " of pinned host memory (" + String.join(", ", parts) + "), and the host has " + mib(hostAvailableBytes)
                    + " available", fix + ", or free host memory"));
        }
        for (Map.Entry<Integer, Long> e : device.entrySet()) {
            Device.MemoryInfo info = backend.device(e.getKey()).memoryInfo();
            if (e.getValue() > info.freeBytes()) {
                v.add(new Violation(property, "the " + specs.size() + " channels together need " + mib(e.getValue())
                        + " of memory on device " + e.getKey() + ", which has " + mib(info.freeBytes()) + " free", fix
                        + ", or free memory on device " + e.getKey()));
            }
        }
        AllocationLimits limits = backend.limits();
        if (limits.inDirectMemory() && total > limits.directBytesFree()) {
            v.add(new Violation(property, "the " + specs.size() + " channels together need " + mib(total) + " of "
                    + limits.where() + ", and " + mib(limits.directBytesFree()) + " are free", fix
                    + ", or raise -XX:MaxDirectMemorySize"));
        }
        return v;
    }

    private static String pinnedParts(ChannelSpec spec, ChannelFootprint f) {
        long ring = spec.geometry().ringBytes();
        String producer = switch (f.place()) {
            case DEVICE -> "the producer's staging ring of " + mib(ring);
            case PINNED_HOST -> "the ring of " + mib(ring) + ", in pinned host memory";
            case SHARED_REGION -> "";
        };
        long producerRing = producer.isEmpty() ? 0 : ring;
        List<String> parts = new ArrayList<>();
        if (!producer.isEmpty()) {
            parts.add(producer);
        }
        if (f.sharedRegion() > 0) {
            parts.add("the shared region of " + mib(f.sharedRegion()));
        }
        if (f.hostRings() > 0) {
            parts.add(mib(f.hostRings()) + " for the host rings host listeners read from (one per consumer)");
        }
        long rest = f.pinnedBytes() - producerRing - f.sharedRegion() - f.hostRings();
        if (rest > 0) {
            parts.add(mib(rest) + " of mirrors, doorbells and host-staged replicas");
        }
        return String.join(", ", parts);
    }

    private static String mib(long bytes) {
        return bytes >= 10 * MIB ? (bytes / MIB) + " MiB" : bytes + " B";
    }
}

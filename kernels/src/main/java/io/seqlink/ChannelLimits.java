package io.seqlink;

import io.seqlink.backend.AllocationLimits;
import io.seqlink.backend.Backend;
import io.seqlink.backend.Device;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.Violation;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.topology.Transport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A channel spec against what its backend can really allocate, before anything is: the largest single
 * device and pinned allocation, each device's free memory, and (on the emulated backend) the JVM's free
 * direct memory. Counts what a channel always allocates: the producer's control block, ring, pinned
 * staging ring and mirror; per consumer its block, mirror and local ring (copy mode), plus the replica a
 * known push transport needs. A host listener's pinned host ring comes later, at subscription.
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
        List<Violation> v = new ArrayList<>();
        long ring = spec.geometry().ringBytes();
        AllocationLimits limits = backend.limits();
        String property = prefix + "slot-size";
        String fix = "lower slots or slot-size";
        if (ring > limits.maxMappedBytes()) {
            v.add(new Violation(property, "the ring of " + ring + " B is larger than the " + limits.maxMappedBytes()
                    + " B the " + backend.kind().name().toLowerCase() + " backend can allocate as one pinned host buffer "
                    + "(the producer's staging ring is one)", fix + " so that slots x (slot size + 64 B, in 128-byte lines) stays at "
                    + "most " + limits.maxMappedBytes() + " B"));
        } else if (ring > limits.maxDeviceBytes()) {
            v.add(new Violation(property, "the ring of " + ring + " B is larger than the " + limits.maxDeviceBytes()
                    + " B the backend can allocate on a device in one piece", fix));
        }
        if (!v.isEmpty()) {
            return v;
        }
        Map<Integer, Long> device = new LinkedHashMap<>();
        long mapped = ring + ControlBlock.BYTES;
        device.merge(spec.producer(), ring + ControlBlock.BYTES, Long::sum);
        for (int c : spec.consumers()) {
            device.merge(c, (long) ConsumerBlock.BYTES + (spec.readMode() == ReadMode.COPY ? ring : 0), Long::sum);
            mapped += ConsumerBlock.BYTES;
            Transport t = transports.getOrDefault(c, spec.transport());
            if (t == Transport.PEER_COPY) {
                device.merge(c, ring + ControlBlock.BYTES, Long::sum);
            } else if (t == Transport.HOST_STAGED) {
                mapped += ring + ControlBlock.BYTES;
            }
        }
        for (Map.Entry<Integer, Long> e : device.entrySet()) {
            Device.MemoryInfo info = backend.device(e.getKey()).memoryInfo();
            if (e.getValue() > info.freeBytes()) {
                v.add(new Violation(property, "the channel needs " + mib(e.getValue()) + " of memory on device " + e.getKey()
                        + ", which has " + mib(info.freeBytes()) + " free of " + mib(info.totalBytes()), fix
                        + ", or free memory on device " + e.getKey()));
            }
        }
        if (limits.inDirectMemory()) {
            long total = mapped + device.values().stream().mapToLong(Long::longValue).sum();
            if (total > limits.directBytesFree()) {
                v.add(new Violation(property, "the channel needs " + mib(total) + " of " + limits.where() + ", and "
                        + mib(limits.directBytesFree()) + " of its " + mib(limits.directBytesMax()) + " are free",
                        fix + ", or raise -XX:MaxDirectMemorySize"));
            }
        }
        return v;
    }

    private static String mib(long bytes) {
        return bytes >= 10 * MIB ? (bytes / MIB) + " MiB" : bytes + " B";
    }
}

package io.seqlink;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ReadMode;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.topology.Transport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every byte a channel allocates over its life, counted before anything is: per device, its device
 * memory; and the pinned (page-locked, mapped) host memory it takes in all.
 *
 * <pre>
 *   producer device   control block, ring
 *   pinned host       staging ring, mirror, doorbells (2 x slots words, when rounds may be armed)
 *   each consumer     device: block, local ring (copy read mode), replica control block and ring (peer-copy)
 *                     pinned: block mirror, replica control block and ring (host-staged), and the host ring a
 *                             host listener reads frames from (one ring per consumer, made at subscription;
 *                             none where the replica already is in host memory and frames are read in place)
 * </pre>
 *
 * A consumer whose transport is not decided yet counts as pulling (no replica). Immutable.
 *
 * @param deviceBytes bytes of device memory, by device
 * @param pinnedBytes bytes of pinned host memory in all
 * @param hostRings   bytes of those that are the consumers' host rings (allocated at subscription)
 */
record ChannelFootprint(Map<Integer, Long> deviceBytes, long pinnedBytes, long hostRings) {

    /** The footprint of {@code spec} with its consumers' {@code transports} (missing ones count as pulling). */
    static ChannelFootprint of(ChannelSpec spec, Map<Integer, Transport> transports) {
        long ring = spec.geometry().ringBytes();
        Map<Integer, Long> device = new LinkedHashMap<>();
        device.merge(spec.producer(), ring + ControlBlock.BYTES, Long::sum);
        long pinned = ring + ControlBlock.BYTES; // staging ring, publish mirror
        if (spec.armedRounds()) {
            pinned += 8L * 2 * spec.slots(); // the doorbells
        }
        long hostRings = 0;
        for (int c : spec.consumers()) {
            Transport t = transports.getOrDefault(c, spec.transport());
            boolean copy = spec.readMode() == ReadMode.COPY;
            device.merge(c, (long) ConsumerBlock.BYTES + (copy ? ring : 0), Long::sum);
            pinned += ConsumerBlock.BYTES;
            if (t == Transport.PEER_COPY) {
                device.merge(c, ring + ControlBlock.BYTES, Long::sum);
            } else if (t == Transport.HOST_STAGED) {
                pinned += ring + ControlBlock.BYTES;
            }
            if (copy || t != Transport.HOST_STAGED) { // host-staged read in place: the replica is the host ring
                hostRings += ring;
            }
        }
        return new ChannelFootprint(Collections.unmodifiableMap(device), pinned + hostRings, hostRings);
    }

    /** Device and pinned memory together: what the emulated backend carves out of the JVM's direct memory. */
    long totalBytes() {
        return pinnedBytes + deviceBytes.values().stream().mapToLong(Long::longValue).sum();
    }
}

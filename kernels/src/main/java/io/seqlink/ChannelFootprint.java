package io.seqlink;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.producer.RingPlace;
import io.seqlink.channel.shared.ChannelExport;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.topology.Transport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every byte a channel allocates over its life, counted before anything is: per device, its device
 * memory; and the pinned (page-locked, mapped) host memory it takes in all. The ring is where the channel
 * will place it ({@link RingPlace#decide}, the decision the channel takes as it opens):
 *
 * <pre>
 *   ring in device memory   producer device: control block, ring; pinned: staging ring, mirror, doorbells
 *                           (2 x slots words, when rounds may be armed)
 *   ring in pinned host     pinned: ring, mirror (nothing on the producer device)
 *   ring in shared region   the region holds ring and mirror (nothing on the producer device)
 *   shared channel          pinned: the whole shared region, whatever the ring's place (CUDA registers it
 *                           to address its parts; on the emulated backend it is a file mapping, no direct memory)
 *   each consumer           device: block, local ring (copy read mode), replica control block and ring (peer-copy)
 *                           pinned: block mirror, replica control block and ring (host-staged), and the ring its
 *                           host listener reads frames from: the replica the producer pushes into for a consumer
 *                           named in hostListeners (made as the channel opens), else a host ring made at
 *                           subscription; none where the frames already are in host memory and are read in place
 * </pre>
 *
 * A consumer whose transport is not decided yet counts as pulling (the forced transport, else same-device or
 * peer-atomic: no replica). Immutable.
 *
 * @param place        where the channel places its ring
 * @param deviceBytes  bytes of device memory, by device
 * @param pinnedBytes  bytes of pinned host memory in all
 * @param hostRings    bytes of those that are the rings the consumers' host listeners read from
 * @param sharedRegion bytes of those that are the shared region (a file mapping pinned in place, not allocated)
 */
record ChannelFootprint(RingPlace.Kind place, Map<Integer, Long> deviceBytes, long pinnedBytes, long hostRings, long sharedRegion) {

    /** The footprint of {@code spec} with its consumers' {@code transports} (missing ones count as pulling). */
    static ChannelFootprint of(ChannelSpec spec, Map<Integer, Transport> transports) {
        Map<Integer, Transport> decided = new LinkedHashMap<>();
        for (int c : spec.consumers()) {
            decided.put(c, transports.getOrDefault(c, pulling(spec, c)));
        }
        RingPlace.Kind place = RingPlace.decide(spec, decided);
        long ring = spec.geometry().ringBytes();
        Map<Integer, Long> device = new LinkedHashMap<>();
        long pinned = 0;
        switch (place) {
            case DEVICE -> {
                device.merge(spec.producer(), ring + ControlBlock.BYTES, Long::sum);
                pinned += ring + ControlBlock.BYTES; // staging ring, publish mirror
                if (spec.armedRounds()) {
                    pinned += 8L * 2 * spec.slots(); // the doorbells
                }
            }
            case PINNED_HOST -> pinned += ring + ControlBlock.BYTES; // the ring, the publish mirror
            case SHARED_REGION -> {
                // the region's ring and control block: counted with the region below
            }
        }
        long region = spec.share() != null ? ChannelExport.regionBytes(spec) : 0;
        pinned += region;
        long hostRings = 0;
        boolean copy = spec.readMode() == ReadMode.COPY;
        for (int c : spec.consumers()) {
            Transport t = decided.get(c);
            boolean pulls = t != Transport.PEER_COPY && t != Transport.HOST_STAGED; // reads the producer's ring
            boolean sourceInHost = t == Transport.HOST_STAGED || (pulls && place.inHost());
            device.merge(c, (long) ConsumerBlock.BYTES + (copy ? ring : 0), Long::sum);
            pinned += ConsumerBlock.BYTES;
            if (t == Transport.PEER_COPY) {
                device.merge(c, ring + ControlBlock.BYTES, Long::sum);
            } else if (t == Transport.HOST_STAGED) {
                pinned += ring + ControlBlock.BYTES;
            }
            if (spec.pushesToHost(c)) {
                if (!sourceInHost) { // the replica the publish step pushes into; else read in place
                    pinned += ControlBlock.BYTES;
                    hostRings += ring;
                }
            } else if (copy || !sourceInHost) { // a host ring the consumer's stream stages frames into
                hostRings += ring;
            }
        }
        return new ChannelFootprint(place, Collections.unmodifiableMap(device), pinned + hostRings, hostRings, region);
    }

    /** The transport {@code consumer} counts with while none is decided: the forced one, else pulling. */
    private static Transport pulling(ChannelSpec spec, int consumer) {
        if (spec.transport() != Transport.AUTO) {
            return spec.transport();
        }
        return consumer == spec.producer() ? Transport.SAME_DEVICE : Transport.PEER_ATOMIC;
    }

    /**
     * Device and pinned memory together, the shared region left out: what the emulated backend carves out of the JVM's
     * direct memory.
     */
    long totalBytes() {
        return pinnedBytes - sharedRegion + deviceBytes.values().stream().mapToLong(Long::longValue).sum();
    }
}

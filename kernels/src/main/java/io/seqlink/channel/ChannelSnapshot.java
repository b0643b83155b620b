package io.seqlink.channel;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A channel's state and counters at one moment, read without locks.
 *
 * @param name              channel name
 * @param state             open, draining, closed or failed
 * @param failure           why it failed, or {@code null}
 * @param producer          producer device
 * @param slots             ring slots
 * @param slotBytes         payload bytes per slot
 * @param delivery          delivery mode
 * @param readMode          read mode
 * @param claimed           frames claimed by the producer
 * @param published         frames the producer has enqueued for publishing
 * @param publishedOnDevice frames the device has published (the producer's host mirror)
 * @param backpressured     claim calls that found no free slot, once per call (a blocking claim that waited counts once)
 * @param backpressureWaitNanos time blocking claims spent waiting for a free slot, over all producer threads
 * @param claimsAbandoned   claims given back and published as padding: by {@link PublishChannel#abandon()}, or on
 *                          behalf of a producer thread that died holding one
 * @param openClaim         the oldest claim not yet committed, or {@code null} when every claimed frame is committed
 * @param consumers         one snapshot per consumer of this process
 * @param attached          the consumer processes attached to the channel now, by seat ({@link PublishChannel#attachedConsumers()});
 *                          empty when the channel is not shared
 */
public record ChannelSnapshot(String name, ChannelState state, @Nullable String failure, int producer, int slots, long slotBytes,
        Delivery delivery, ReadMode readMode, long claimed, long published, long publishedOnDevice, long backpressured,
        long backpressureWaitNanos, long claimsAbandoned, @Nullable OpenClaim openClaim, List<ConsumerSnapshot> consumers,
        List<AttachedConsumer> attached) {

    public ChannelSnapshot {
        consumers = List.copyOf(consumers);
        attached = List.copyOf(attached);
    }

    /** A snapshot of a channel no other process is attached to. */
    public ChannelSnapshot(String name, ChannelState state, @Nullable String failure, int producer, int slots, long slotBytes,
            Delivery delivery, ReadMode readMode, long claimed, long published, long publishedOnDevice, long backpressured,
            long backpressureWaitNanos, long claimsAbandoned, @Nullable OpenClaim openClaim, List<ConsumerSnapshot> consumers) {
        this(name, state, failure, producer, slots, slotBytes, delivery, readMode, claimed, published, publishedOnDevice,
                backpressured, backpressureWaitNanos, claimsAbandoned, openClaim, consumers, List.of());
    }

    /**
     * A claimed frame not yet committed: while it is open, no frame claimed after it is published. A claim
     * whose owner has died is given back by the next producer call that publishes, or by the close.
     *
     * @param sequence   its sequence
     * @param owner      the name of the thread that holds it
     * @param ownerAlive whether that thread is still alive
     * @param openNanos  how long it has been open at least: since the first snapshot that saw it open (claims
     *                   carry no clock, so producing reads none); 0 at that first sighting
     */
    public record OpenClaim(long sequence, String owner, boolean ownerAlive, long openNanos) {
    }

    /** The largest lag over all consumers that are not dead, the attached consumer processes included. */
    public long maxLag() {
        long max = 0;
        for (ConsumerSnapshot c : consumers) {
            if (c.state() != ConsumerState.DEAD) {
                max = Math.max(max, c.lag());
            }
        }
        for (AttachedConsumer a : attached) {
            max = Math.max(max, a.lag());
        }
        return max;
    }
}

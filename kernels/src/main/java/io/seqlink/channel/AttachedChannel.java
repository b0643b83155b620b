package io.seqlink.channel;

import org.jspecify.annotations.Nullable;

/**
 * A channel whose producer runs in another process of this host, attached by name
 * ({@code SeqlinkRuntime.attachChannel}): one {@link ConsumerPort} on a device of this process, reading the frames
 * the producer pushes into the region both processes map. Every method is safe from any thread.
 *
 * <p>States: {@code OPEN} while attached; {@code FAILED} once the producer is gone (its connection ended, its
 * heartbeat stood still for the stall timeout, it closed the channel, or it dropped this consumer), with
 * {@link #failure()} saying which; {@code CLOSED} after {@link #close()}. Once it left {@code OPEN}, no listener
 * call begins (a call in progress finishes) and nothing waits on the producer.
 */
public interface AttachedChannel extends AutoCloseable {

    /** The producer's channel name. */
    String name();

    ChannelState state();

    /** Why the channel failed, or {@code null}. */
    @Nullable Throwable failure();

    /** The consumer of this process: subscribe listeners to it as to any channel's. */
    ConsumerPort consumer();

    /** The epoch the producer gave this attachment (a new one at every attach). */
    long epoch();

    /** The seat this attachment holds in the producer's region. */
    int seat();

    /**
     * The sequence this attachment started after: the first frame delivered is {@code startsAfter() + 1}; frames
     * published before the attach are not delivered to it.
     */
    long startsAfter();

    /**
     * Detaches: the consumer stops (a listener call in progress finishes first, up to the stall timeout), the producer
     * drops the seat, and the mapping is released. Idempotent; any thread, a listener's too.
     */
    @Override
    void close();
}

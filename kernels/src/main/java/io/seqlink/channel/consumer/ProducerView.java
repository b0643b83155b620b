package io.seqlink.channel.consumer;

import io.seqlink.channel.FrameContext;

/**
 * What a consumer port reads of its channel's producer: how far the producer published, on the device and as
 * enqueued, and when a frame was published. Implemented by the channel that owns the port; every method is safe
 * from any thread and never waits. The caller holds the channel's memory (its memory guard), so a device mirror
 * read here is never read after it was freed; once the channel closed, the final values answer.
 */
public interface ProducerView {

    /** {@code publish_seq} as the producer's host mirror shows it: the frames the device has published. */
    long publishedOnDevice();

    /** Frames whose publish step the producer enqueued (published on the host), a count that only grows. */
    long publishedCount();

    /** When {@code sequence} was published, by {@link System#nanoTime()}; 0 when not known. */
    long publishTime(long sequence);

    /**
     * How many of the published, unacknowledged sequences {@code from..to} are padding (claims given back, which no
     * listener gets); exact for a range no longer than the ring that is not yet overwritten.
     */
    long paddingIn(long from, long to);

    /**
     * Copies the trace context published frame {@code sequence} carries in its header, as the producing host wrote it,
     * into {@code into} and returns {@code true}; clears {@code into} and returns {@code false} when it carries none,
     * is not published yet, or its slot holds a later frame already. Allocates nothing. A producer whose header words
     * this process does not write (one in another process) answers none.
     */
    default boolean context(long sequence, FrameContext into) {
        into.clear();
        return false;
    }
}

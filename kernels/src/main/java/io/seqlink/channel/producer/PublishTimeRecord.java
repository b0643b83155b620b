package io.seqlink.channel.producer;

import io.seqlink.layout.RingGeometry;

/**
 * When each slot's frame was published (the publishing thread's {@link System#nanoTime()} as it enqueues the publish
 * step), for the consumers' publish-to-delivery timer. One writer, the thread holding the publisher; readers on any
 * thread, and for a shared channel in the consumer processes too (on Linux {@code nanoTime} is {@code CLOCK_MONOTONIC},
 * one clock for every process of the host). A reader gets 0 while a slot has no time yet; it reads without ordering
 * against the publish, so it may see the slot's previous frame's time, which only lengthens one sample of a metric.
 */
public interface PublishTimeRecord {

    /** Records {@code nanos} as the publish time of frames {@code first .. first + count - 1}; the publisher only. */
    void record(long first, int count, long nanos);

    /** When {@code sequence} was published; 0 if unknown. Any thread. */
    long of(long sequence);

    /** A record in this process's heap, for a channel no other process consumes. */
    static PublishTimeRecord inHeap(RingGeometry geometry) {
        return new PublishTimes(geometry);
    }
}

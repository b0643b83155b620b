package io.seqlink.channel.producer;

import io.seqlink.layout.RingGeometry;

/**
 * When each slot's frame was published (host clock), for the publish-to-ack timer. One writer, the
 * thread holding the publisher; consumers read. Consecutive slots sit 8 entries apart when the ring
 * allows it, so a consumer reading the time of frame {@code s} does not pull away the cache line the
 * publisher is writing the time of {@code s + 1} into (it did, once per frame).
 */
final class PublishTimes {

    private final RingGeometry geometry;
    private final long[] nanos;

    PublishTimes(RingGeometry geometry) {
        this.geometry = geometry;
        this.nanos = new long[geometry.slots()];
    }

    void record(long first, int count, long now) {
        for (long s = first; s < first + count; s++) {
            nanos[index(geometry.slotOf(s))] = now;
        }
    }

    /** When {@code sequence} was published; 0 if unknown. */
    long of(long sequence) {
        return nanos[index(geometry.slotOf(sequence))];
    }

    private int index(int slot) {
        int slots = geometry.slots();
        return (slots & 7) == 0 ? (slot & 7) * (slots >>> 3) + (slot >>> 3) : slot;
    }
}

package io.seqlink.channel.shared;

import io.seqlink.layout.RingGeometry;

/**
 * The shared region's publish times (its {@code times} part), one word per slot: the producer process records each
 * frame's publish time there, the consumer processes' ports read it, so their publish-to-delivery timer works across
 * the process boundary (on Linux {@code System.nanoTime()} is one clock for every process of the host). Written by the
 * producer's publishing thread only; read on any thread of any process.
 */
final class SharedPublishTimes {

    private final SharedRegion region;
    private final long offset;
    private final RingGeometry geometry;

    SharedPublishTimes(SharedRegion region, SharedLayout layout) {
        this.region = region;
        this.offset = layout.times();
        this.geometry = layout.geometry();
    }

    void record(long first, int count, long nanos) {
        for (long s = first; s < first + count; s++) {
            region.setRelease(at(s), nanos);
        }
    }

    /** When {@code sequence} was published; 0 if unknown (or, read across a lap, its slot's previous frame's time). */
    long of(long sequence) {
        return region.getAcquire(at(sequence));
    }

    private long at(long sequence) {
        return offset + 8L * geometry.spreadIndexOf(sequence);
    }
}

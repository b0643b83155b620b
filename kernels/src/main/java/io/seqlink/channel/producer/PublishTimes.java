package io.seqlink.channel.producer;

import io.seqlink.layout.RingGeometry;

/** {@link PublishTimeRecord} in this process's heap: one entry per slot, spread over lines. */
final class PublishTimes implements PublishTimeRecord {

    private final RingGeometry geometry;
    private final long[] nanos;

    PublishTimes(RingGeometry geometry) {
        this.geometry = geometry;
        this.nanos = new long[geometry.slots()];
    }

    @Override
    public void record(long first, int count, long now) {
        for (long s = first; s < first + count; s++) {
            nanos[geometry.spreadIndexOf(s)] = now;
        }
    }

    @Override
    public long of(long sequence) {
        return nanos[geometry.spreadIndexOf(sequence)];
    }
}

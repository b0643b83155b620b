package io.seqlink.channel.shared;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.consumer.ProducerView;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;

/**
 * What an attached channel's port reads of a producer in another process: how far it published, from the shared
 * replica's {@code publish_seq} (one acquire load), when each frame was published, from the region's publish times,
 * and which frames are padding, from the ring's length words. Any thread.
 */
final class SharedProducerView implements ProducerView {

    private final MappedBuffer control;
    private final MappedBuffer ring;
    private final RingGeometry geometry;
    private final SharedPublishTimes times;

    SharedProducerView(MappedBuffer control, MappedBuffer ring, RingGeometry geometry, SharedPublishTimes times) {
        this.control = control;
        this.ring = ring;
        this.geometry = geometry;
        this.times = times;
    }

    @Override
    public long publishedOnDevice() {
        return control.getAcquire(ControlBlock.PUBLISH_SEQ);
    }

    @Override
    public long publishedCount() {
        return publishedOnDevice();
    }

    @Override
    public long publishTime(long sequence) {
        return times.of(sequence);
    }

    @Override
    public long paddingIn(long from, long to) {
        long n = 0;
        for (long s = Math.max(from, to - geometry.slots() + 1); s <= to; s++) {
            if (ring.getPlain(geometry.offsetOf(s) + SlotHeader.LENGTH) < 0) {
                n++;
            }
        }
        return n;
    }
}

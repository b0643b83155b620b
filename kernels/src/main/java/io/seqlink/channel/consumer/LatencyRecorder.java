package io.seqlink.channel.consumer;

import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Publish-to-ack latency of delivered frames: the port's latency counters (count, total, max) and an
 * optional outside recorder (a Micrometer timer). Written by the thread that delivers, one round at a
 * time; the counters are updated once per round, not once per frame.
 */
final class LatencyRecorder {

    private final ProducerView producer;
    private final CounterSet counters;
    private volatile @Nullable LongConsumer recorder;

    LatencyRecorder(ProducerView producer, CounterSet counters) {
        this.producer = producer;
        this.counters = counters;
    }

    void recorder(LongConsumer recorder) {
        this.recorder = recorder;
    }

    /**
     * The frames {@code from..to} of a host round, with one clock read: the ack that follows covers them
     * all. Frames the round skipped as overwritten (their staged stamp is not their sequence; nothing
     * rewrites the host ring until the next round), and padding, are not counted.
     */
    void recordRound(long from, long to, HostRing host) {
        if (to < from) {
            return;
        }
        long now = System.nanoTime();
        @Nullable LongConsumer r = recorder;
        long count = 0;
        long total = 0;
        long max = 0;
        for (long s = from; s <= to; s++) {
            long published = producer.publishTime(s);
            long nanos = now - published;
            if (published == 0 || nanos < 0 || !host.holdsFrame(s)) {
                continue;
            }
            count++;
            total += nanos;
            max = Math.max(max, nanos);
            if (r != null) {
                r.accept(nanos);
            }
        }
        if (count > 0) {
            counters.add(PortCounters.C_LAT_COUNT, count);
            counters.add(PortCounters.C_LAT_TOTAL, total);
            counters.max(PortCounters.C_LAT_MAX, max);
        }
    }

    /** One frame delivered at {@code nowNanos}. */
    void record(long sequence, long nowNanos) {
        long published = producer.publishTime(sequence);
        long nanos = nowNanos - published;
        if (published == 0 || nanos < 0) {
            return;
        }
        counters.increment(PortCounters.C_LAT_COUNT);
        counters.add(PortCounters.C_LAT_TOTAL, nanos);
        counters.max(PortCounters.C_LAT_MAX, nanos);
        @Nullable LongConsumer r = recorder;
        if (r != null) {
            r.accept(nanos);
        }
    }
}

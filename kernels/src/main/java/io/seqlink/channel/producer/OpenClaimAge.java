package io.seqlink.channel.producer;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How long the oldest open claim has been open, as snapshots see it: from the first snapshot that found
 * that claim open. A claim carries no clock, so the producer's fast path reads none; the age is a lower
 * bound, as fine as snapshots are frequent (the Spring layer's health and metrics take one at every
 * scrape). Any thread.
 */
final class OpenClaimAge {

    /** The claim a snapshot last found open, and when it first did. */
    private record Sighting(long sequence, long sinceNanos) {
    }

    private final AtomicReference<Sighting> last = new AtomicReference<>(new Sighting(0, 0));

    /** Nanoseconds since a snapshot first saw {@code sequence} open (0 at this first sighting). */
    long openNanos(long sequence, long nowNanos) {
        Sighting s = sighting();
        if (s.sequence() != sequence) {
            last.compareAndSet(s, new Sighting(sequence, nowNanos)); // a racing snapshot's sighting of the same claim may win
            s = sighting();
        }
        return s.sequence() == sequence ? Math.max(0, nowNanos - s.sinceNanos()) : 0;
    }

    /** The last sighting: there is always one (the initial one; compare-and-set replaces it with another). */
    private Sighting sighting() {
        return Objects.requireNonNull(last.get(), "last");
    }
}

package io.seqlink.channel.producer;

import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.RingGeometry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sequences a channel published as padding: claims given back ({@link PublishChannel#abandon()}, or
 * on behalf of a producer thread that died holding one). Padding is acknowledged and never delivered,
 * so the consumers' counts and the drain's report leave these sequences out. Written by whoever gives a
 * claim back, before the commit mark that lets the padding be published; read by consumers and the
 * drain for published ranges. Nothing here runs per frame unless a claim was given back.
 *
 * <p>One mark per ring slot: the sequence last abandoned in it. A mark holds until its slot's next
 * abandonment, a lap later at the earliest, so {@link #count} is exact over a range of at most
 * {@code slots} sequences that are not overwritten yet (always so for lossless delivery, whose
 * unacknowledged range is at most a ring).
 */
final class AbandonedSequences {

    private static final VarHandle MARKS = MethodHandles.arrayElementVarHandle(long[].class);

    private final RingGeometry geometry;
    private final long[] marks;
    /** The highest sequence abandoned, so a range above it is answered with one read. */
    private final AtomicLong highest = new AtomicLong();
    private final AtomicLong total = new AtomicLong();

    AbandonedSequences(RingGeometry geometry) {
        this.geometry = geometry;
        this.marks = new long[geometry.slots()];
    }

    /** Records {@code sequence} as padding; the caller then marks it committed, which publishes this record with it. */
    void mark(long sequence) {
        MARKS.setRelease(marks, geometry.slotOf(sequence), sequence);
        highest.accumulateAndGet(sequence, Math::max);
        total.incrementAndGet();
    }

    /** Claims given back so far. */
    long total() {
        return total.get();
    }

    /** How many of {@code from..to} are padding (see the class comment for when this is exact); 0 for an empty range. */
    long count(long from, long to) {
        long top = Math.min(to, highest.get());
        if (top < from) {
            return 0;
        }
        long n = 0;
        for (long s = Math.max(from, top - geometry.slots() + 1); s <= top; s++) {
            if ((long) MARKS.getAcquire(marks, geometry.slotOf(s)) == s) {
                n++;
            }
        }
        return n;
    }
}

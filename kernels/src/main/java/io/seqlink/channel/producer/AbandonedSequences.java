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
 * <p>Two marks per ring slot, one per parity of the lap: the sequence last abandoned at that place. A mark holds
 * until the abandonment two laps later at the earliest, so {@link #count} is exact over a range of at most
 * {@code slots} sequences the producer has not claimed two laps past. That holds for a lossless consumer even
 * when it counts a round after the round's acknowledgement reached the producer (a device listener that
 * acknowledges in its kernel, counted when the round lands): until it counts, its port starts no other round, so
 * its acknowledgement stays at most at the round's end, and the producer claims at most a ring beyond it, one lap.
 * One mark per slot would let that lap's padding overwrite the round's mark, and the round would count a padding
 * frame as delivered.
 */
final class AbandonedSequences {

    private static final VarHandle MARKS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] marks;
    /** The highest sequence abandoned, so a range above it is answered with one read. */
    private final AtomicLong highest = new AtomicLong();
    private final AtomicLong total = new AtomicLong();

    AbandonedSequences(RingGeometry geometry) {
        this.marks = new long[2 * geometry.slots()];
    }

    /** Records {@code sequence} as padding; the caller then marks it committed, which publishes this record with it. */
    void mark(long sequence) {
        MARKS.setRelease(marks, place(sequence), sequence);
        highest.accumulateAndGet(sequence, Math::max);
        total.incrementAndGet();
    }

    private int place(long sequence) {
        return (int) Long.remainderUnsigned(sequence, marks.length);
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
        for (long s = Math.max(from, top - marks.length + 1); s <= top; s++) {
            if ((long) MARKS.getAcquire(marks, place(s)) == s) {
                n++;
            }
        }
        return n;
    }
}

package io.seqlink.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands out sequences to any number of producing threads and publishes them in sequence order, in the
 * style of the Disruptor's multi-producer sequencer: a CAS on the claim cursor, a per-slot mark for
 * "committed", and one publisher at a time that takes the committed prefix of the open window with one
 * publish step (flat combining: whoever publishes, publishes everyone's frames).
 *
 * <pre>
 *   published       claimed                 window: published &lt; s &lt;= claimed, at most maxBatch frames
 *      |               |
 *   ---+---+---+---+---+---
 *      | c | c | . | c |          c: committed (its data is on the producer stream), .: claimed, being written
 *   ---+---+---+---+---+---
 *        \___/
 *     one publish step takes the committed prefix (2 frames here); frame 4 waits for frame 3
 *
 *   per window index i = s &amp; mask:  claimSeq[i] = s, owner[i] = the claiming thread, committed[i] = s once committed
 * </pre>
 *
 * <p>Each thread holds at most one uncommitted claim; it is found again by scanning the window (at most
 * {@code maxBatch} entries) for the calling thread, so no thread-local state is needed. A window index
 * is reused for {@code s + size} only once {@code s} is published, which a scan detects by reading the
 * index's sequence again after its commit mark. The window's
 * bound ({@code claimed - published <= maxBatch}) is what {@code writer_busy} announces to
 * {@code latest} consumers, and it keeps the window's indices distinct.
 *
 * <p>Publishing and the lost wake-up: a thread that commits and then fails to take the publisher
 * flag leaves its frame to the flag's holder, which looks at the next commit mark once more after it
 * lets the flag go (a volatile store, then a volatile load). The committer, on failing, fences and
 * looks at the flag again: if it is still held, the holder's last look comes after the committer's
 * mark, so either the holder sees the commit or the committer takes the flag (Dekker's argument over the
 * two variables, with a fence on each side). A thread that takes the flag at once pays no fence: a
 * single producer publishes with one compare-and-set and one volatile store per batch.
 */
final class ProducerSequencer extends ProducerSequencerFields {

    private static final VarHandle CLAIMED;
    private static final VarHandle PUBLISHED;
    private static final VarHandle PUBLISHING;
    private static final VarHandle CACHED_SLOWEST;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle THREADS = MethodHandles.arrayElementVarHandle(Thread[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(ProducerSequencerFields.class, "claimed", long.class);
            PUBLISHED = l.findVarHandle(ProducerSequencerFields.class, "published", long.class);
            PUBLISHING = l.findVarHandle(ProducerSequencerFields.class, "publishing", int.class);
            CACHED_SLOWEST = l.findVarHandle(ProducerSequencerFields.class, "cachedSlowest", long.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** What a claim must wait for, and what a publish does: the channel's side of the sequencer. */
    interface Gating {
        /** Whether {@code sequence}'s slot (and its staging) may be written now. */
        boolean slotFree(long sequence);

        /** Enqueues the publish step of {@code count} committed frames starting at {@code first}. */
        void publishStep(long first, int count);
    }

    private final int maxBatch;
    private final int mask;
    private final long[] claimSeq;
    private final Thread[] owner;
    private final long[] committed;
    private final Gating gating;
    /** Calls that found no free slot, once per call; and the time blocking claims spent waiting. */
    private final LongAdder backPressured = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    long p11, p12, p13, p14, p15, p16, p17;

    ProducerSequencer(int maxBatch, Gating gating) {
        this.maxBatch = maxBatch;
        int size = Integer.highestOneBit(Math.max(1, maxBatch - 1)) << 1;
        this.mask = size - 1;
        this.claimSeq = new long[size];
        this.owner = new Thread[size];
        this.committed = new long[size];
        this.gating = gating;
    }

    /** The highest sequence handed out. */
    long claimed() {
        return (long) CLAIMED.getVolatile(this);
    }

    /** The highest sequence whose publish step was enqueued. */
    long published() {
        return (long) PUBLISHED.getVolatile(this);
    }

    long backPressured() {
        return backPressured.sum();
    }

    long waitNanos() {
        return waitNanos.sum();
    }

    void countBackPressured() {
        backPressured.increment();
    }

    void addWaitNanos(long nanos) {
        waitNanos.add(nanos);
    }

    /** The gating cache: the slowest acknowledgement last read, shared by every producer (monotonic, so racing updates are harmless). */
    long cachedSlowest() {
        return (long) CACHED_SLOWEST.getOpaque(this);
    }

    void cacheSlowest(long slowest) {
        if (slowest > cachedSlowest()) {
            CACHED_SLOWEST.setOpaque(this, slowest);
        }
    }

    /**
     * Claims the next sequence for {@code thread}: the sequence, or {@link ClaimStatus#CLAIM_OPEN} (the
     * thread holds an uncommitted claim), {@link ClaimStatus#BATCH_FULL} (the window is full) or
     * {@link ClaimStatus#BACK_PRESSURED} (the slot is not free). Counts nothing.
     */
    long claim(Thread thread) {
        if (openClaimOf(thread) > 0) {
            return ClaimStatus.CLAIM_OPEN;
        }
        for (;;) {
            long c = (long) CLAIMED.getVolatile(this);
            long p = (long) PUBLISHED.getAcquire(this);
            if (c - p >= maxBatch) {
                return ClaimStatus.BATCH_FULL;
            }
            long next = c + 1;
            if (!gating.slotFree(next)) {
                return ClaimStatus.BACK_PRESSURED;
            }
            if (CLAIMED.compareAndSet(this, c, next)) {
                int i = (int) next & mask;
                if (THREADS.getOpaque(owner, i) != thread) {
                    // a reference store costs a GC write barrier; a single producer finds itself there after the first lap
                    THREADS.setOpaque(owner, i, thread);
                }
                LONGS.setRelease(claimSeq, i, next); // after the owner: whoever sees the sequence sees its owner
                return next;
            }
        }
    }

    /**
     * {@code thread}'s uncommitted claim, or 0. A thread holds at most one, and it is its latest claim
     * (it cannot claim again before committing), so the scan stops at the first frame of the thread's it
     * meets, from the newest down: one look for a single producer.
     */
    long openClaimOf(Thread thread) {
        long c = (long) CLAIMED.getVolatile(this);
        int i = (int) c & mask;
        // the newest claim is this thread's (always so for a single producer): its only possible open one
        long s = (long) LONGS.getAcquire(claimSeq, i) == c && THREADS.getOpaque(owner, i) == thread ? c : latestOf(thread);
        if (s <= 0) {
            return 0;
        }
        long mark = (long) LONGS.getAcquire(committed, (int) s & mask);
        return mark != s && mark != -s // neither committed nor abandoned
                && (long) LONGS.getAcquire(claimSeq, (int) s & mask) == s ? s : 0; // not reused meanwhile by s + window
    }

    /** Whether {@code thread} claimed a frame of the open window, committed or not. */
    boolean holdsWindowFrame(Thread thread) {
        return latestOf(thread) > 0;
    }

    /** The newest sequence of the open window that {@code thread} claimed, or 0. */
    private long latestOf(Thread thread) {
        // claimed before published: the range then spans at most maxBatch sequences, so no index repeats in it
        long c = (long) CLAIMED.getVolatile(this);
        for (long s = c, p = (long) PUBLISHED.getAcquire(this); s > p; s--) {
            int i = (int) s & mask;
            if ((long) LONGS.getAcquire(claimSeq, i) == s && THREADS.getOpaque(owner, i) == thread) {
                return s;
            }
        }
        return 0;
    }

    /**
     * Gives up {@code sequence}, claimed and never to be committed (its channel refused the commit): it is
     * no longer its thread's open claim, and it is never published, so the window stays shut behind it
     * (the channel takes no more frames by then). The mark is the sequence negated: no commit mark.
     */
    void abandon(long sequence) {
        LONGS.setRelease(committed, (int) sequence & mask, -sequence);
    }

    /**
     * Marks {@code sequence} committed: its data and length were enqueued before this call. A release
     * store: a committer that then finds the publisher busy fences before it looks at the publisher again
     * ({@link #publishCommitted}), which is the half of Dekker's argument this store needs.
     */
    void markCommitted(long sequence) {
        LONGS.setRelease(committed, (int) sequence & mask, sequence);
    }

    /**
     * Publishes the committed prefix of the window with one publish step, repeatedly while more becomes
     * committed; returns how many frames this call published (0 when another thread holds the publisher,
     * which then publishes them, or when the next frame is still being written).
     */
    int publishCommitted() {
        int total = 0;
        for (;;) {
            if (!PUBLISHING.compareAndSet(this, 0, 1)) {
                VarHandle.fullFence(); // our commit mark before our look at the publisher flag
                if ((int) PUBLISHING.getVolatile(this) != 0) {
                    return total; // the publisher looks at the next commit mark after it lets go: ours
                }
                continue; // it let go meanwhile: take it
            }
            try {
                long p = (long) PUBLISHED.getOpaque(this); // only the publisher writes it
                long k = p;
                while ((long) LONGS.getVolatile(committed, (int) (k + 1) & mask) == k + 1) {
                    k++;
                }
                if (k > p) {
                    gating.publishStep(p + 1, (int) (k - p));
                    PUBLISHED.setRelease(this, k);
                    total += (int) (k - p);
                }
            } finally {
                PUBLISHING.setVolatile(this, 0);
            }
            long p = (long) PUBLISHED.getVolatile(this);
            if ((long) LONGS.getVolatile(committed, (int) (p + 1) & mask) != p + 1) {
                return total; // nothing committed behind what was published: the next committer publishes it
            }
        }
    }
}

/** The cursors, padded on both sides (the Disruptor's trick): every producer writes them, consumers read nearby fields. */
abstract class ProducerSequencerFields extends ProducerSequencerPad {
    long claimed;
    long published;
    int publishing;
    long cachedSlowest;
}

/** Padding in front of the cursors. */
abstract class ProducerSequencerPad {
    long p01, p02, p03, p04, p05, p06, p07;
}

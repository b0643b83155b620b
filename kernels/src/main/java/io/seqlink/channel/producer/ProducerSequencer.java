package io.seqlink.channel.producer;

import io.seqlink.channel.ClaimStatus;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

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
 *   per window index i = s &amp; mask:  claimSeq[i] = s, owner[i] = the claiming thread, committed[i] = its commit mark:
 *       s     committed (a frame, or padding for a claim given back): the publisher may take it
 *      -s     given up: being padded by the one thread whose compare-and-set took it, or dropped (its commit was refused)
 *     else    open: claimed, being written (the mark still holds an earlier lap's value)
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
 *
 * <p>Giving a claim back. Sequences stay contiguous for consumers, so a claim that will never be
 * committed is published as padding (its length word -1, recorded in {@link AbandonedSequences}). Its
 * owner gives it back with {@link #abandon}; a claim whose owner thread has died is given back on its
 * behalf by the publisher that finds the committed prefix stopped at it, or by a drain
 * ({@link #padDeadClaims}). Everything a thread did happens-before {@link Thread#isAlive()} answering
 * false, so a dead owner's claim can no longer change under the rescuer. Each of them takes the claim
 * with one compare-and-set of its commit mark from its open value to {@code -s}: exactly one pads it and
 * then stores {@code s}, and only that one releases, once, what a dead owner's claim held
 * ({@link Gating#ownerDied}). A rescuer acts on dead owners only, so an owner's own commit (a plain
 * release store on the fast path) and abandon race no rescuer. The owner check ({@code isAlive}) runs
 * only where the committed prefix stops at a claimed frame; where it stops because nothing more is
 * claimed (a single producer, always) it costs one read of the claim's sequence, which is not there.
 *
 * <p>A full window is a thread's own doing only when frames it committed wait in the committed prefix
 * and it asked for no publish since ({@link #publishFor} records the ask; a publish that found another
 * under way left them to it): only then does {@link #claim} answer {@link ClaimStatus#BATCH_FULL} (its
 * {@code publish()} is due). Otherwise the window is held by other threads' frames in flight: the claim
 * helps publish what they committed (giving back a dead owner's claim on the way), tries again a few
 * times, and answers {@link ClaimStatus#BACK_PRESSURED}. {@link #claimToPublish} (for {@code offer},
 * which publishes what it commits) never answers {@code BATCH_FULL}.
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

        /**
         * A publish step's frames count as published now ({@link #published()} shows them) and the publisher is let
         * go: tell whoever waits for frames (the consumers' dozing loops). Called once per publish step, on the
         * thread that enqueued it.
         */
        void published();

        /** Writes {@code sequence}'s length word as padding where its publish step reads it. */
        void pad(long sequence);

        /**
         * {@code sequence}, whose owner thread died holding it, was given back on its behalf: release what
         * the claim held. Called exactly once per such claim, on the thread that gave it back.
         */
        void ownerDied(long sequence, Thread owner);
    }

    /** An open claim and the thread that holds it. */
    record OpenClaim(long sequence, Thread owner) {
    }

    /** How often a claim on a window full of other threads' frames helps publish and tries again before it answers BACK_PRESSURED. */
    static final int HELP_ATTEMPTS = 16;

    private final int maxBatch;
    private final int mask;
    private final long[] claimSeq;
    private final Thread[] owner;
    private final long[] committed;
    /**
     * Per window index, the sequence for which its owner asked a publish after committing it: written and
     * read by that owner only (for {@code s + size} by the next lap's, once {@code s} is published).
     */
    private final long[] publishAsked;
    private final Gating gating;
    private final AbandonedSequences abandoned;
    /** Calls that found no free slot, once per call; and the time blocking claims spent waiting. */
    private final LongAdder backPressured = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    long p11, p12, p13, p14, p15, p16, p17;

    ProducerSequencer(int maxBatch, Gating gating, AbandonedSequences abandoned) {
        this.maxBatch = maxBatch;
        int size = Integer.highestOneBit(Math.max(1, maxBatch - 1)) << 1;
        this.mask = size - 1;
        this.claimSeq = new long[size];
        this.owner = new Thread[size];
        this.committed = new long[size];
        this.publishAsked = new long[size];
        this.gating = gating;
        this.abandoned = abandoned;
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
     * Claims the next sequence for {@code thread} ({@code tryClaim}): the sequence, or
     * {@link ClaimStatus#CLAIM_OPEN} (the thread holds an uncommitted claim), {@link ClaimStatus#BATCH_FULL}
     * (the window is full and frames this thread committed, and asked no publish for since, wait in its
     * committed prefix: its {@code publish()} is due) or {@link ClaimStatus#BACK_PRESSURED} (the slot is
     * not free, or other threads' frames fill the window: this call helped publish them and tried again
     * {@link #HELP_ATTEMPTS} times). Counts nothing.
     */
    long claim(Thread thread) {
        return claim(thread, false);
    }

    /**
     * {@link #claim} for a caller that publishes as soon as it commits ({@code offer}): it helps publish a
     * full window whoever's frames fill it, so it never gets {@link ClaimStatus#BATCH_FULL}.
     */
    long claimToPublish(Thread thread) {
        return claim(thread, true);
    }

    private long claim(Thread thread, boolean publishesNext) {
        long seq = claimOnce(thread);
        for (int attempt = 0; seq == ClaimStatus.BATCH_FULL; attempt++) {
            if (!publishesNext && ownFrameAwaitsPublish(thread)) {
                return ClaimStatus.BATCH_FULL;
            }
            if (attempt == HELP_ATTEMPTS) {
                return ClaimStatus.BACK_PRESSURED; // frames in flight hold the window, and none waits for this thread
            }
            publishCommitted(); // what the others committed; a dead owner's claim is given back there
            Thread.onSpinWait();
            seq = claimOnce(thread);
        }
        return seq;
    }

    /**
     * Whether frames {@code thread} committed wait in the window's committed prefix and the thread asked
     * for no publish since its newest one ({@link #publishFor}): it batches them, and its publish is due.
     * A thread that asked (its publish found another thread publishing, which takes them) is not told so.
     */
    private boolean ownFrameAwaitsPublish(Thread thread) {
        long latest = latestOf(thread); // committed or given back: the caller holds no open claim
        if (latest == 0 || (long) LONGS.getOpaque(publishAsked, (int) latest & mask) == latest) {
            return false;
        }
        long c = (long) CLAIMED.getVolatile(this);
        for (long s = (long) PUBLISHED.getAcquire(this) + 1; s <= c; s++) {
            int i = (int) s & mask;
            if ((long) LONGS.getVolatile(committed, i) != s) {
                return false; // the prefix ends before any frame of this thread
            }
            if ((long) LONGS.getAcquire(claimSeq, i) == s && THREADS.getOpaque(owner, i) == thread) {
                return true;
            }
        }
        return false;
    }

    private long claimOnce(Thread thread) {
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
     * Drops {@code sequence}, claimed and never to be committed (its channel refused the commit): it is
     * no longer its thread's open claim, and it is never published, so the window stays shut behind it
     * (the channel takes no more frames by then). The mark is the sequence negated: no commit mark.
     */
    void drop(long sequence) {
        LONGS.setRelease(committed, (int) sequence & mask, -sequence);
    }

    /**
     * Gives back {@code thread}'s open claim: it is committed as padding, for the next publish to take
     * (this call does not publish). Returns its sequence, or 0 when the thread holds no open claim.
     */
    long abandon(Thread thread) {
        long s = openClaimOf(thread);
        if (s == 0) {
            return 0;
        }
        int i = (int) s & mask;
        // nobody else moves a live owner's mark, so the compare-and-set succeeds; it is the same step a rescuer takes
        return pad(s, i, (long) LONGS.getVolatile(committed, i)) ? s : 0;
    }

    /**
     * Gives back every claim of the open window whose owner thread has died (a drain, which no publish may
     * follow otherwise); returns how many this call gave back. Any thread.
     */
    int padDeadClaims() {
        int n = 0;
        long c = (long) CLAIMED.getVolatile(this);
        for (long s = (long) PUBLISHED.getAcquire(this) + 1; s <= c; s++) {
            int i = (int) s & mask;
            long mark = (long) LONGS.getVolatile(committed, i);
            if (mark != s && padIfOwnerDied(s, i, mark)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Gives back {@code s} (window index {@code i}, commit mark {@code mark}, not committed) if it is claimed
     * and its owner has died; true when this call did (and released the claim's hold through the gating).
     */
    private boolean padIfOwnerDied(long s, int i, long mark) {
        if (mark == -s || (long) LONGS.getAcquire(claimSeq, i) != s) {
            return false; // given up already, or not claimed (or claimed and its owner not stored yet: a live claimer)
        }
        Thread o = (Thread) THREADS.getOpaque(owner, i); // stored before the sequence we just read
        if (o.isAlive() || !pad(s, i, mark)) {
            return false;
        }
        gating.ownerDied(s, o);
        return true;
    }

    /** Takes {@code s}'s open mark and commits it as padding; false when another thread took it first. */
    private boolean pad(long s, int i, long open) {
        if (open == s || open == -s || !LONGS.compareAndSet(committed, i, open, -s)) {
            return false;
        }
        gating.pad(s);
        abandoned.mark(s);
        LONGS.setRelease(committed, i, s); // after the length word and the record: a publish that takes it finds both
        return true;
    }

    /** The oldest claim of the open window that is neither committed nor given up, with its owner; {@code null} if none. */
    @Nullable OpenClaim oldestOpen() {
        long c = (long) CLAIMED.getVolatile(this);
        for (long s = (long) PUBLISHED.getAcquire(this) + 1; s <= c; s++) {
            int i = (int) s & mask;
            long mark = (long) LONGS.getVolatile(committed, i);
            if (mark != s && mark != -s && (long) LONGS.getAcquire(claimSeq, i) == s) {
                return new OpenClaim(s, (Thread) THREADS.getOpaque(owner, i));
            }
        }
        return null;
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
     * {@link #publishCommitted} on behalf of the thread whose newest frame of the window is {@code latest}
     * (0: none), recording that it asked: from then on the claims of that thread are not answered
     * {@code BATCH_FULL} for its frames up to {@code latest}, which this publish, or the one it found under
     * way, takes.
     */
    int publishFor(long latest) {
        if (latest > 0) {
            LONGS.setOpaque(publishAsked, (int) latest & mask, latest);
        }
        return publishCommitted();
    }

    /** {@link #publishFor(long)} for {@code thread}'s newest frame of the window. */
    int publishFor(Thread thread) {
        return publishFor(latestOf(thread));
    }

    /**
     * Publishes the committed prefix of the window with one publish step, repeatedly while more becomes
     * committed; returns how many frames this call published (0 when another thread holds the publisher,
     * which then publishes them, or when the next frame is still being written). Where the prefix stops
     * at a claim whose owner has died, the claim is given back and the prefix goes on past it.
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
            long k;
            long p;
            try {
                p = (long) PUBLISHED.getOpaque(this); // only the publisher writes it
                k = p;
                for (;;) {
                    long next = k + 1;
                    int i = (int) next & mask;
                    long mark = (long) LONGS.getVolatile(committed, i);
                    if (mark != next && !padIfOwnerDied(next, i, mark)) {
                        break; // being written by a live owner, or nothing more is claimed (a mark that changed meanwhile: the look below)
                    }
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
            if (k > p) {
                gating.published(); // per step, not per call: a call that keeps publishing others' frames rings each time
            }
            long last = (long) PUBLISHED.getVolatile(this);
            if ((long) LONGS.getVolatile(committed, (int) (last + 1) & mask) != last + 1) {
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

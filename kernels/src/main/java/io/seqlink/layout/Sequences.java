package io.seqlink.layout;

/**
 * The arithmetic of the protocol on 64-bit monotonic sequences, in one place so both backends, the
 * channel and the tests agree on it. Sequences start at 1 and never wrap in practice (2^63 frames).
 */
public final class Sequences {

    private Sequences() {
    }

    /**
     * Whether the producer may claim {@code sequence} under lossless delivery: its slot last held
     * {@code sequence - slots}, which every consumer must have acknowledged.
     */
    public static boolean slotFree(long sequence, long slowestConsumed, int slots) {
        return sequence - slots <= slowestConsumed;
    }

    /** The highest sequence the producer may claim when the slowest consumer acknowledged {@code slowestConsumed}. */
    public static long claimLimit(long slowestConsumed, int slots) {
        return slowestConsumed + slots;
    }

    /**
     * The oldest frame still intact once the producer has announced {@code writerBusy} (the highest
     * sequence it may be writing): frame {@code f} is intact while {@code f + slots > writerBusy}.
     */
    public static long oldestIntact(long writerBusy, int slots) {
        return Math.max(1, writerBusy - slots + 1);
    }

    /** Whether frame {@code f}, read before {@code writerBusy} was observed, is intact. */
    public static boolean intact(long f, long writerBusy, int slots) {
        return f + slots > writerBusy;
    }

    /** What a publish of up to {@code published} announces as {@code writer_busy}. */
    public static long writerBusyAfter(long published, int maxBatch) {
        return published + maxBatch;
    }

    /**
     * Where a consumer whose next frame is {@code next} starts when the producer has published up to
     * {@code published}: the same frame, or, when it was lapped ({@code latest} delivery), the oldest
     * frame the producer is not allowed to be overwriting yet.
     */
    public static long lapStart(long next, long published, int slots, int maxBatch) {
        return Math.max(next, oldestIntact(writerBusyAfter(published, maxBatch), slots));
    }

    /** The end of a round that starts at {@code from}, takes at most {@code maxBatch} frames and stops at {@code published}. */
    public static long roundEnd(long from, long published, int maxBatch) {
        return Math.min(published, from + maxBatch - 1);
    }
}

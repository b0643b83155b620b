package io.seqlink.channel;

/**
 * Status codes of {@link PublishChannel#tryClaim()} and {@link PublishChannel#offer}: a positive
 * result is the claimed sequence, a negative one is one of these. No exception on the hot path.
 */
public final class ClaimStatus {

    /**
     * Try again: no free slot (a consumer has not acknowledged the frame the slot holds, lossless
     * delivery), or other threads' frames in flight fill the {@code maxPublishBatch} window (the call
     * helped publish what they committed and tried again a few times first).
     */
    public static final long BACK_PRESSURED = -1;
    /** The channel was closed. */
    public static final long CLOSED = -2;
    /** The calling thread holds a claimed frame that is not committed yet: commit it before claiming another. */
    public static final long CLAIM_OPEN = -3;
    /**
     * {@code maxPublishBatch} frames are claimed and not yet published, and frames this thread committed
     * wait among them for a publish nobody else is making: call {@code publish()}, then claim again.
     * Returned by {@code tryClaim} and {@code claim} only to a thread that batches its own frames; a thread
     * held up only by other threads' frames gets {@link #BACK_PRESSURED}, and {@code offer} never gets it.
     */
    public static final long BATCH_FULL = -4;
    /** The channel failed (a device error); {@link PublishChannel#failure()} says why. */
    public static final long FAILED = -5;

    private ClaimStatus() {
    }

    /** A name for a status code, or {@code "SEQUENCE"} for a claimed sequence. */
    public static String describe(long status) {
        if (status > 0) {
            return "SEQUENCE";
        }
        if (status == BACK_PRESSURED) {
            return "BACK_PRESSURED";
        }
        if (status == CLOSED) {
            return "CLOSED";
        }
        if (status == CLAIM_OPEN) {
            return "CLAIM_OPEN";
        }
        if (status == BATCH_FULL) {
            return "BATCH_FULL";
        }
        if (status == FAILED) {
            return "FAILED";
        }
        return "UNKNOWN(" + status + ")";
    }
}

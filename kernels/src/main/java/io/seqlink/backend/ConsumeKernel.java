package io.seqlink.backend;

/**
 * The consume step of one consumer, bound to the consumer's stream. One enqueue takes the frames
 * {@code from..to} the launcher saw published:
 * <ol>
 *   <li>one thread does one acquire read of {@code publish_seq} ({@code ld.acquire.sys}) and shares
 *       it with the block; the range is clipped to what it returned (a shorter range counts as an
 *       empty poll);</li>
 *   <li>in copy mode, the block copies the range's slots (headers included) into the consumer's
 *       local ring, same slot indices; in direct mode it copies nothing;</li>
 *   <li>with lapping ({@code latest} delivery), after a system fence, one acquire read of
 *       {@code writer_busy} bounds {@code valid_from}; frames below it were overwritten while being
 *       read; in every mode the stamps of what was read must match their sequences;</li>
 *   <li>it updates the cursor's counters and writes the descriptor (device block and host mirror),
 *       {@code round} last.</li>
 * </ol>
 */
public interface ConsumeKernel {

    /** Enqueues the consume step for {@code from..to} (inclusive), tagging the descriptor with {@code round}. */
    void enqueue(long from, long to, long round);
}

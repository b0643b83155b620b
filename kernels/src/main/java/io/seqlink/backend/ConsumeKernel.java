package io.seqlink.backend;

/**
 * The consume step of one consumer, bound to the consumer's stream. One enqueue takes the frames
 * {@code from..to} the launcher saw published:
 * <ol>
 *   <li>one thread does one acquire read of {@code publish_seq} ({@code ld.acquire.sys}) and shares
 *       it with the block; the range is clipped to what it returned (a shorter range counts as an
 *       empty poll; for an ordinary round, one that ends short of {@code to} also counts in
 *       {@link io.seqlink.layout.ConsumerBlock#SHORT_ROUNDS}, which the launcher's range rules out);</li>
 *   <li>an {@linkplain #enqueueArmed armed} round then reads the host's cancel word
 *       ({@link io.seqlink.layout.ConsumerBlock#ARM_CANCEL} of the mirror) and takes nothing when the host
 *       cancelled it;</li>
 *   <li>in copy mode, the block copies the range's slots (headers included) into the consumer's
 *       local ring, same slot indices; in direct mode it copies nothing;</li>
 *   <li>with lapping ({@code latest} delivery), after a system fence, one acquire read of
 *       {@code writer_busy} bounds {@code valid_from}; frames below it were overwritten while being
 *       read; in every mode the stamps of what was read must match their sequences;</li>
 *   <li>it updates the cursor's counters and writes the descriptor (device block and host mirror),
 *       {@code round} last.</li>
 * </ol>
 *
 * <p>Threading: one thread at a time enqueues on a binding (the thread that owns the consumer's stream work);
 * both backends serialise enqueues of one binding, so a second thread is safe but its order is unspecified.
 */
public interface ConsumeKernel {

    /**
     * Enqueues the consume step of an ordinary round for {@code from..to} (inclusive), frames the launcher saw
     * published, tagging the descriptor with {@code round}.
     */
    void enqueue(long from, long to, long round);

    /**
     * Enqueues the consume step of an armed round {@code round} for {@code from..to}: enqueued before its
     * frames were seen published (behind a stream wait), so it may end short of {@code to} without counting a
     * short round, and it takes nothing once the host has cancelled round {@code round} (the mirror's
     * {@code ARM_CANCEL} is {@code >= round} when it looks, after its acquire read).
     */
    void enqueueArmed(long from, long to, long round);
}

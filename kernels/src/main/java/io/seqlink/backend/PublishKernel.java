package io.seqlink.backend;

/**
 * The publish step of one channel, bound to the producer's stream. One enqueue publishes the next
 * {@code count} frames, whose data earlier work on the stream wrote:
 * <ol>
 *   <li>stamp each frame's slot header with its sequence (and, when the binding names a
 *       {@code lengths} source, copy each frame's length from there into the header);</li>
 *   <li>system-scope fence, then one release add of {@code count} to {@code publish_seq}
 *       ({@code fence.sc.sys; red.release.sys.global.add.u64}); record {@code batch_size};</li>
 *   <li>release-store {@code writer_busy = publish_seq + max_batch}, fenced before later writes;</li>
 *   <li>for each push target (replicas of the control block and ring on a consumer's side or in
 *       host memory): copy the frames' slots, then release-store the replica's {@code publish_seq}
 *       and {@code writer_busy};</li>
 *   <li>last, release-store {@code publish_seq} and {@code writer_busy} into the producer's host mirror.</li>
 * </ol>
 */
public interface PublishKernel {

    /** Enqueues the publish of the next {@code count} frames ({@code 1 <= count <= max_batch}). */
    void enqueue(int count);
}

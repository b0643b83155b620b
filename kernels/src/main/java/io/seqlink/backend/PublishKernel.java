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

    /**
     * Enqueues the publish of the next {@code count} frames ({@code 1 <= count <= max_batch}), numbered on the device
     * from {@code publish_seq}: for a caller that cannot number them (users' kernels that publish at their end may have
     * run in between). Any thread; publishes are ordered as their enqueues are.
     */
    void enqueue(int count);

    /**
     * Enqueues the same publish of frames {@code first .. first + count - 1} for a caller that numbers them (a channel's
     * sequencer, which enqueues every publish of its stream), so a backend may write the publish's words from the host's
     * side of the stream instead of reading {@code publish_seq} on the device (the CUDA backend's kernel reads it).
     * {@code first} ({@code >= 1}) must be the first sequence no publish enqueued earlier on the stream covers, users'
     * kernels that publish at their end included; the emulated backend checks it against the device word and fails the
     * stream when they differ. Any thread; publishes are ordered as their enqueues are.
     */
    void enqueue(long first, int count);
}

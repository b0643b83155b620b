package io.seqlink.backend;

/**
 * The ack step of one consumer, bound to the consumer's stream: after all earlier work on the stream
 * (the listener's reads), one release store of {@code consumed_seq} into the consumer's host mirror,
 * where the producer's backpressure reads it. Enqueued by the port's poller or its listener, never by two
 * at once (the stream's order is the ack's meaning).
 */
public interface AckKernel {

    /**
     * Enqueues the acknowledgement of every frame up to {@code sequence}: a stream write of {@code consumed_seq}
     * after the stream's earlier work (CUDA: {@code cuStreamWriteValue64}, or {@code seqlink_ack} without 64-bit
     * stream memory operations).
     */
    void enqueue(long sequence);

    /**
     * Enqueues the acknowledgement of what the consume step before it on the stream took: every frame up to
     * the device block's {@code READY_TO}, read on the device in stream order ({@code seqlink_ack_ready}). The
     * ack of an armed round, enqueued before anyone knows whether its frame will come: a round that took
     * nothing has {@code READY_TO = from - 1}, the last acknowledgement, so it acknowledges no frame it did
     * not take.
     */
    void enqueueTaken();
}

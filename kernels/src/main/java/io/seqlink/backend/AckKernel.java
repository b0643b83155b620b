package io.seqlink.backend;

/**
 * The ack step of one consumer, bound to the consumer's stream: after all earlier work on the stream
 * (the listener's reads), release-stores {@code consumed_seq} into the consumer's device block and
 * into its host mirror, where the producer's backpressure reads it.
 */
public interface AckKernel {

    /** Enqueues the acknowledgement of every frame up to {@code sequence}. */
    void enqueue(long sequence);
}

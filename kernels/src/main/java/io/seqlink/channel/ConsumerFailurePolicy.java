package io.seqlink.channel;

/** What a channel does when a consumer's device fails (lost, or a sticky error on its context). */
public enum ConsumerFailurePolicy {
    /** Close the whole channel with the error: health DOWN, the producer's claims return {@code FAILED} (the default). */
    FAIL_CHANNEL,
    /** Mark the consumer dead and stop waiting for it; the frames it did not take are reported as undelivered. */
    DROP_CONSUMER,
    /** Mark the consumer dead but keep it in the backpressure: a lossless producer stops until an operator acts. */
    KEEP_WAITING
}

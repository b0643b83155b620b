package io.seqlink.channel;

/** The life of one consumer of a channel. */
public enum ConsumerState {
    /** Consuming. */
    ACTIVE,
    /** Paused by an operator: polled no more, frames wait (lossless) or are lapped (latest). */
    PAUSED,
    /** Its device failed; the channel's {@link ConsumerFailurePolicy} decides what follows. */
    DEAD,
    /** Its channel closed. */
    CLOSED
}

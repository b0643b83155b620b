package io.seqlink.channel;

/** The life of a channel. */
public enum ChannelState {
    /** Open: the producer publishes, consumers consume. */
    OPEN,
    /** Closing: no new claims; consumers drain what was published. */
    DRAINING,
    /** Closed by its owner. */
    CLOSED,
    /** Closed by a device error; {@link PublishChannel#failure()} holds it. */
    FAILED
}

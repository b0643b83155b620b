package io.seqlink.channel;

/** What a channel promises each consumer. */
public enum Delivery {
    /**
     * Every frame reaches every consumer. The producer may not reuse a slot until every consumer has
     * acknowledged it: a slow consumer back-pressures the producer (the default).
     */
    LOSSLESS,
    /**
     * The producer never waits. A consumer that was lapped skips to the newest frames, counts what it
     * missed, and checks after reading that what it read was not overwritten.
     */
    LATEST
}

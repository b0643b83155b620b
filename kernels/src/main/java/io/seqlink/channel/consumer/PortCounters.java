package io.seqlink.channel.consumer;

/**
 * The slots of a consumer port's {@link CounterSet}, which the port's snapshot reports. Written by whichever thread
 * delivers the port's round (one at a time: the round's status hands them over), the stall counter by the watchdog.
 */
final class PortCounters {

    static final int C_DELIVERED = 0;
    static final int C_MISSED = 1;
    static final int C_ROUNDS = 2;
    static final int C_HOST_EMPTY = 3;
    static final int C_RETRIES = 4;
    static final int C_DEAD_LETTERED = 5;
    static final int C_STALLS = 6;
    static final int C_LAT_COUNT = 7;
    static final int C_LAT_TOTAL = 8;
    static final int C_LAT_MAX = 9;
    static final int C_ARMED_EARLY_WAKES = 10;
    static final int C_ARMED_RELEASED = 11;
    /**
     * The highest sequence the port counted handled (delivered, dead-lettered, skipped as missed or padding), raised
     * with release after those counts: a snapshot that acquires it never shows a frame acknowledged before it shows
     * it handled.
     */
    static final int C_HANDLED_TO = 12;
    /** Padding acknowledged and never delivered: the sequences of claims given back. */
    static final int C_PADDING = 13;
    static final int COUNTERS = 14;

    private PortCounters() {
    }
}

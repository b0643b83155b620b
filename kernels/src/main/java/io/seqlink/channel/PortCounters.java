package io.seqlink.channel;

/** The slots of a consumer port's {@link CounterSet}, which {@link ConsumerPort#snapshot()} reports. */
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
    static final int C_PADDING = 12;
    static final int COUNTERS = 13;

    private PortCounters() {
    }
}

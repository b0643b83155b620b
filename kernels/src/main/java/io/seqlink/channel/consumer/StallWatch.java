package io.seqlink.channel.consumer;

import io.seqlink.LogKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stall detection of one consumer, run by the launcher's watchdog thread: a consumer with frames published beyond
 * its acknowledgement and no acknowledgement for the stall timeout is stalled; it recovers when acknowledgements
 * move. The watchdog is the only writer of the stall counter and of the last acknowledgement seen;
 * {@link #progress()} is safe from any thread.
 */
final class StallWatch {

    private static final Logger log = LoggerFactory.getLogger(StallWatch.class);

    private final String channel;
    private final int device;
    private final long timeoutNanos;
    private volatile boolean stalled;
    private volatile long lastProgressNanos = System.nanoTime();
    private long lastSeenAck;

    StallWatch(String channel, int device, long timeoutNanos) {
        this.channel = channel;
        this.device = device;
        this.timeoutNanos = timeoutNanos;
    }

    boolean stalled() {
        return stalled;
    }

    /** The port acknowledged frames, or was resumed: the stall clock restarts. */
    void progress() {
        lastProgressNanos = System.nanoTime();
    }

    void clear() {
        stalled = false;
    }

    /**
     * The watchdog's look: whether the consumer is stalled now, given its acknowledgement, the frames published on
     * the device, and whether its listener is retrying (for the log line).
     */
    boolean check(long nowNanos, long ack, long publishedOnDevice, boolean retrying, CounterSet counters) {
        if (ack != lastSeenAck) {
            lastSeenAck = ack;
            lastProgressNanos = nowNanos;
        }
        boolean waiting = publishedOnDevice > ack;
        boolean nowStalled = waiting && nowNanos - lastProgressNanos > timeoutNanos;
        if (nowStalled && !stalled) {
            counters.increment(PortCounters.C_STALLS);
            log.atWarn().addKeyValue(LogKeys.CHANNEL, channel).addKeyValue(LogKeys.DEVICE, device).addKeyValue(LogKeys.SEQUENCE, ack + 1)
                    .log("seqlink channel '{}': consumer on device {} is stalled: {} frame(s) wait, no ack for {} ms{}", channel, device,
                            publishedOnDevice - ack, timeoutNanos / 1_000_000,
                            retrying ? " (its listener is retrying a failed frame)" : "");
        } else if (!nowStalled && stalled) {
            log.info("seqlink channel '{}': consumer on device {} recovered", channel, device);
        }
        if (!waiting) {
            lastProgressNanos = nowNanos;
        }
        stalled = nowStalled;
        return nowStalled;
    }
}

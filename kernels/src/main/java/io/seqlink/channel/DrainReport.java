package io.seqlink.channel;

import java.util.Map;

/**
 * What closing a channel left behind: per consumer device, frames published but not acknowledged.
 *
 * @param channel     channel name
 * @param published   frames the device published
 * @param undelivered per consumer device, frames it did not acknowledge (absent or 0: all delivered)
 * @param timedOut    whether the drain gave up waiting
 */
public record DrainReport(String channel, long published, Map<Integer, Long> undelivered, boolean timedOut) {

    public DrainReport {
        undelivered = Map.copyOf(undelivered);
    }

    public long totalUndelivered() {
        return undelivered.values().stream().mapToLong(Long::longValue).sum();
    }
}

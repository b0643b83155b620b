package io.seqlink.ucx.link;

import org.slf4j.Logger;

/**
 * The refusal lines of one link: at most {@value #BURST} at WARN per {@value #WINDOW_SECONDS} s, the rest
 * at DEBUG and counted into one WARN line when the next window opens, so a hostile peer cannot flood the
 * log (every refusal is still counted in {@link LinkStatus}). Link thread only.
 */
final class RefusalLog {

    static final int BURST = 10;
    static final long WINDOW_SECONDS = 10;
    private static final long WINDOW_NANOS = WINDOW_SECONDS * 1_000_000_000L;

    private final Logger log;
    private final String channel;
    private long windowStart = System.nanoTime();
    private int logged;
    private long suppressed;

    RefusalLog(Logger log, String channel) {
        this.log = log;
        this.channel = channel;
    }

    /** Logs a refusal of this link's channel: "seqlink UCX channel 'c': " then {@code what}. */
    void refused(String what) {
        long now = System.nanoTime();
        if (now - windowStart >= WINDOW_NANOS) {
            if (suppressed > 0) {
                log.warn("seqlink UCX channel '{}': {} more refusal(s) in {} s not logged one by one (they are counted: "
                        + "BridgeSnapshot.refusals(), the seqlink.ucx refusal meters, the health detail)", channel, suppressed,
                        WINDOW_SECONDS);
            }
            windowStart = now;
            logged = 0;
            suppressed = 0;
        }
        if (logged < BURST) {
            logged++;
            log.warn("seqlink UCX channel '{}': {}", channel, what);
        } else {
            suppressed++;
            log.debug("seqlink UCX channel '{}': {}", channel, what);
        }
    }
}

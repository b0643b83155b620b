package io.seqlink.topology;

/** What to do when a channel's link is worse than the required link class. */
public enum UnsupportedLinkPolicy {
    /** Refuse to start (the default). */
    FAIL,
    /** Use the best transport the link supports; health stays UP and notes the fallback. */
    FALLBACK,
    /** Use the best transport the link supports, log a warning, and report health DEGRADED. */
    WARN
}

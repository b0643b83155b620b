package io.seqlink.ucx;

import java.time.Duration;

/**
 * One end of a channel carried across hosts. Threads: every method is safe from any thread;
 * {@link #close(Duration)} acts once (an atomic transition) and every later call returns the first report; a call
 * made while another thread's close runs waits for it within its own timeout and returns at once on interrupt
 * (keeping the flag), with the counts so far marked {@code timedOut}.
 */
public interface UcxBridge extends AutoCloseable {

    /** The channel carried (the same name on both hosts). */
    String channel();

    BridgeSnapshot.Role role();

    LinkState state();

    /** Counters and state now; reads volatile fields only, never UCX. */
    BridgeSnapshot snapshot();

    /**
     * Closes the link after at most {@code timeout} of finishing what it holds (see each end), then
     * frees its UCX resources. Returns at once on interrupt, keeping the flag (the link thread then
     * finishes on its own). Accounts in the report for every frame it took.
     */
    BridgeCloseReport close(Duration timeout);

    /** {@link #close(Duration)} with 10 seconds. */
    @Override
    default void close() {
        close(Duration.ofSeconds(10));
    }
}

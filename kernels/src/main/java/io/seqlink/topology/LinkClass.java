package io.seqlink.topology;

/**
 * The verifier's verdict on a producer → consumer link, best first. A channel needs at least the
 * class it requires; a worse class is handled by the unsupported-link policy.
 */
public enum LinkClass {
    /** Native peer atomics, measured fast: the consumer pulls with one acquire read over the link. */
    PEER_ATOMIC,
    /** Peer access without usable atomics: the producer pushes data by copy and the sequence by a single-writer release store. */
    PEER_COPY,
    /** No peer path: copy-engine DMA through pinned host memory and a publish flag the CPU sees. */
    HOST_STAGED;

    /** Whether this class is at least as good as {@code required}. */
    public boolean satisfies(LinkClass required) {
        return ordinal() <= required.ordinal();
    }
}

package io.seqlink.topology;

/** How a channel moves frames and sequences to one consumer. */
public enum Transport {
    /** Choose from the verifier's verdict for the link (the default). */
    AUTO,
    /** Consumer pulls: acquire read of the producer's {@code publish_seq}, data read over the link. */
    PEER_ATOMIC,
    /** Producer pushes: data by peer copy into a replica ring, the sequence by a release store into a replica control block. */
    PEER_COPY,
    /** Producer stages data and sequence in pinned host memory by DMA; the consumer copies it in. */
    HOST_STAGED,
    /** Producer and consumer on one device, on separate streams. */
    SAME_DEVICE,
    /**
     * Consumer in another process of the host: the producer pushes frames and the sequence into a shared-memory
     * replica both processes map, and the consumer acknowledges into its seat there. Never chosen by the verifier:
     * an attached channel's port has it ({@code SeqlinkRuntime.attachChannel}).
     */
    SHARED_MEMORY;

    /** The transport that implements a verdict. */
    public static Transport of(LinkClass linkClass) {
        return switch (linkClass) {
            case PEER_ATOMIC -> PEER_ATOMIC;
            case PEER_COPY -> PEER_COPY;
            case HOST_STAGED -> HOST_STAGED;
        };
    }
}

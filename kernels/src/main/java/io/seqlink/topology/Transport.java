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
    SAME_DEVICE;

    /** The transport that implements a verdict. */
    public static Transport of(LinkClass linkClass) {
        return switch (linkClass) {
            case PEER_ATOMIC -> PEER_ATOMIC;
            case PEER_COPY -> PEER_COPY;
            case HOST_STAGED -> HOST_STAGED;
        };
    }

    /** The link class this transport corresponds to ({@link #SAME_DEVICE} counts as {@link LinkClass#PEER_ATOMIC}). */
    public LinkClass linkClass() {
        return switch (this) {
            case PEER_ATOMIC, SAME_DEVICE -> LinkClass.PEER_ATOMIC;
            case PEER_COPY -> LinkClass.PEER_COPY;
            case HOST_STAGED -> LinkClass.HOST_STAGED;
            case AUTO -> throw new IllegalStateException("AUTO is not a transport");
        };
    }

    /** Whether the producer pushes into a replica for this transport. */
    public boolean pushes() {
        return this == PEER_COPY || this == HOST_STAGED;
    }
}

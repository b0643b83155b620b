package io.seqlink.channel.consumer;

/**
 * The seat a port of a channel attached from another process holds in the region it shares with the producer's process
 * ({@link io.seqlink.topology.Transport#SHARED_MEMORY}): the producer gates on the seat's acknowledgement while the seat
 * holds the attachment's epoch, and takes the seat back by one compare-and-set of that epoch to 0 (a drop), after which
 * it may rewrite any slot, those the port has not acknowledged included. The port reads frames in place, so a frame it
 * read is known intact only if the seat still held the epoch after the read: the check a seqlock reader makes after its
 * reads, with the live epoch as the sequence ({@link LeasedSeat} makes it, for a host listener as {@link LeasedHostFrames}
 * says and for a device listener before it forwards the device's acknowledgement).
 *
 * <p>Implemented by the attachment. Both methods are safe from any thread and never wait; {@link #held()} allocates
 * nothing.
 */
public interface SeatLease {

    /**
     * Whether the seat still holds the attachment's epoch, looked at after every read the calling thread made before
     * the call: an acquire fence ({@code VarHandle.acquireFence}, so no earlier load is performed after the next one),
     * then an acquire load of the seat's live epoch. True means the producer had not dropped the seat when those reads
     * were made, so none of them returned a write the producer made after a drop: every such write follows, in the
     * producer, a read of the live epoch that returned something else (its gating reads it before it lets a slot be
     * rewritten), and that read follows the drop. False is final: a seat taken back is never given the same epoch again.
     */
    boolean held();

    /**
     * The port found the seat taken back around a round, {@code why} saying which frames that concerns and what became
     * of them: the attachment fails naming it (or, having failed already, adds it to its failure). Any thread; more
     * than one call adds each {@code why}.
     */
    void lost(String why);
}

package io.seqlink.channel.consumer;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.layout.ConsumerBlock;

/**
 * The acknowledgement of a port attached from another process, as the producer sees it: the {@code consumed_seq} of
 * the port's seat in the shared region, which the producer gates on while the seat holds the attachment's epoch
 * ({@link SeatLease}). The port's own steps never write the seat: its device's consume and ack steps, and a device
 * listener's kernels that acknowledge, write the port's own host mirror (memory of this process, which nobody else
 * reads), and this class alone stores into the seat, each store after a look at the lease that finds the seat held.
 * The lease is looked at as a seqlock reader looks at its sequence, after every read of the frames the store
 * acknowledges ({@link SeatLease#held}: an acquire fence, then an acquire load of the seat's live epoch), so a frame
 * read across the producer's drop is never acknowledged into the seat, which may since belong to another attachment:
 *
 * <pre>
 *   a round launches         {@link #mayDeliver}: held? ──no──> lost "before from..to were delivered": none of it is
 *
 *   host listener            its calls read the round in place (this thread)
 *                            {@link #acknowledge}: held? ──yes──> seat.consumed_seq = s (release store)
 *                                                    └──no──> lost "while from..s were with its listener"
 *
 *   device listener          consume step, the listener's kernels (the device's reads), then its ack: a release store of
 *                            the port's own mirror's consumed_seq = s, after those reads in stream order
 *                            {@link #forward} (the poller, each pass): acquire own consumed_seq = s; s above the seat's?
 *                            held? ──yes──> seat.consumed_seq = s (release store)
 *                                  └──no──> lost "while ..s were with its device listener"
 * </pre>
 *
 * <p>Why the device's acknowledgement is sound when forwarded: the device's reads of frames up to {@code s} come before
 * its release store of {@code s} into the port's mirror (stream order: the ack step runs after the listener's kernels
 * completed, and it is a system-scope release; a kernel that acknowledges stores with release after its reads), the
 * poller's acquire load of that word comes before its look at the lease (program order, and the look's fence), so when
 * the look finds the seat held, no such read returned a write the producer made after a drop: the argument of
 * {@link LeasedHostFrames}, with the device's reads carried to the poller by the release and acquire of the mirror's
 * word. A store after a look that found the seat held may still land after a drop (the thread can stop between the
 * two), even in the seat of a later attachment: its value is at most the {@code publish_seq} the round read before the
 * look, so it can only lower that attachment's acknowledgement (as {@link LeasedHostFrames} says). What the device
 * acknowledged reaches the seat one poll pass later than an in-process device listener's ack reaches its mirror; the
 * poller of an attached port never dozes while the port is active with a listener ({@link PortDriver#holdsLoopAwake}).
 *
 * <p>Lost is final (a seat taken back never holds the epoch again): from then on nothing is delivered or stored, and
 * each of the two reports reaches {@link SeatLease#lost} once at most. The methods but {@link #acknowledged} run on the
 * port's deliverer (the poller, or the listener thread while a round is with it: the round's status hands the state
 * over); {@link #acknowledged} is safe from any thread. Nothing allocates unless the seat is lost.
 */
final class LeasedSeat {

    private final SeatLease lease;
    /** The seat's mirror in the region: its {@code consumed_seq} is the word the producer gates on. */
    private final MappedBuffer seat;
    /** The port's own host mirror, whose {@code consumed_seq} the port's device steps and listener kernels store. */
    private final MappedBuffer own;
    /** The highest acknowledgement stored into the seat (the attachment's start until the first). */
    private volatile long stored;
    private boolean lost;

    LeasedSeat(SeatLease lease, MappedBuffer seat, MappedBuffer own, long startsAfter) {
        this.lease = lease;
        this.seat = seat;
        this.own = own;
        this.stored = startsAfter;
    }

    /**
     * As round {@code from..to} launches: whether the seat still holds, so the round may be delivered; false (final)
     * reports the round as not delivered, once. Looking here keeps a round begun after a drop from reaching the listener
     * at all (a stopped process that resumes is most likely between rounds); the acknowledgement's look does not need it.
     */
    boolean mayDeliver(long from, long to) {
        if (!lost && !lease.held()) {
            lose("the producer dropped this consumer before frames " + from + ".." + to + " were delivered, and none of them was");
        }
        return !lost;
    }

    /**
     * Before a single-frame listener's call for frame {@code sequence} of the round that began at {@code from}, after
     * every read of the frames before it: whether the seat still holds, so the call may be made; false (final) reports
     * that the frames before it were with the listener across the drop and that it and the rest of the round were not
     * delivered, once. Bounds what a drop inside a round can hand the listener to the frame it is being called for.
     */
    boolean mayCall(long from, long sequence) {
        if (!lost && !lease.held()) {
            lose(readAcrossDrop(from, sequence - 1, "its listener: read in place") + "; frames from " + sequence
                    + " on of that round were not delivered");
        }
        return !lost;
    }

    /**
     * A host listener's acknowledgement of the round {@code from..sequence} it read in place on this thread: stored into
     * the seat when the seat still holds, after those reads; true when it was. False (final): reported, not stored.
     */
    boolean acknowledge(long from, long sequence) {
        if (lost) {
            return false;
        }
        if (!lease.held()) {
            lose(readAcrossDrop(from, sequence, "its listener: read in place"));
            return false;
        }
        store(sequence);
        return true;
    }

    /**
     * Forwards what the port's device acknowledged into its own mirror (a device listener's ack step or kernel) into the
     * seat, when it is above what the seat holds from this port and the seat still holds; else, once, reports those
     * frames as read by the device across the drop and leaves them unacknowledged. One acquire load when there is nothing
     * new.
     */
    void forward() {
        if (lost) {
            return;
        }
        long acked = own.getAcquire(ConsumerBlock.CONSUMED_SEQ);
        long before = stored;
        if (acked <= before) {
            return;
        }
        if (!lease.held()) {
            lose(readAcrossDrop(before + 1, acked, "its device listener: read in place by its device"));
            return;
        }
        store(acked);
    }

    /** The highest acknowledgement stored into the seat by this port (its start until the first). Any thread. */
    long acknowledged() {
        return stored;
    }

    private void store(long sequence) {
        seat.setRelease(ConsumerBlock.CONSUMED_SEQ, sequence);
        stored = sequence;
    }

    /** The report of frames {@code from..to} read across the drop; {@code withWhom} names the reader and how it read. */
    private static String readAcrossDrop(long from, long to, String withWhom) {
        return "the producer dropped this consumer while frames " + from + ".." + to + " were with " + withWhom + ", they may "
                + "have been rewritten by the producer after the drop (possibly torn), and they are not acknowledged";
    }

    private void lose(String why) {
        lost = true;
        lease.lost(why);
    }
}

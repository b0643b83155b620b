package io.seqlink.channel.consumer;

/**
 * A host listener's frames on a channel attached from another process: the frames {@link PushedHostFrames} gives (read
 * in place in the region shared with the producer's process, up to its {@code publish_seq}, acknowledged by a host
 * store into the seat's {@code consumed_seq}), valid only while the producer has not taken the seat back
 * ({@link SeatLease}; the port's {@link LeasedSeat} looks at it and alone stores into the seat). Each round looks at the
 * lease twice, as a seqlock reader looks at its sequence:
 *
 * <pre>
 *   poller       acquire publish_seq ─> round from..to ─> launch: held? ──no──> lost "before from..to were delivered";
 *                                                            │                 the round lands empty: no listener call
 *                                                            yes
 *   deliverer    per frame s: held? (acquire fence, acquire load) ──no──> lost "while from..s-1 were with its listener";
 *                                                            │                 s and the rest of the round not delivered
 *                                                            yes
 *                stamp, length, the listener's call (every read of the frame's slot)
 *                acknowledge(s): held? (acquire fence, acquire load) ──yes──> the seat's consumed_seq = s (release store)
 *                                                            └──no──> lost "while from..s were with its listener"
 *                                                                     (possibly torn); nothing acknowledged
 * </pre>
 *
 * <p>Why that is sound: the look before the acknowledgement comes after every read of the round (the fence), so when
 * it finds the seat held, no read of the round returned a write the producer made after a drop ({@link SeatLease#held}),
 * and while the seat is held the producer rewrites no slot above the seat's acknowledgement, which the round's frames
 * are: every frame this consumer acknowledges was intact when its listener read it. When it finds the seat taken back,
 * the round may hold rewritten frames; its listener had them, so the round is reported and never acknowledged. The
 * store after a look that found the seat held may still land after a drop (the thread can be stopped between the two),
 * even in the seat of a later attachment: its value is at most the {@code publish_seq} this round read before the
 * look, so at most the sequence a later attachment of that seat starts after (the producer reads it after making the
 * seat live again, after the drop, after this look), and it can only lower that attachment's acknowledgement, which
 * holds the producer back more, never less. The look at launch is not needed for that: it keeps a round begun after
 * the drop from reaching the listener at all (a stopped process resumed is most likely between rounds).
 *
 * <p>A frame of a round whose listener was inside the round when the seat was taken back is the part left open: it
 * reaches the listener, then is reported. Cost: one acquire load at launch and a fence and an acquire load at the
 * acknowledgement, per round; nothing per frame, no allocation unless the lease is lost. A new instance per
 * subscription; its methods run on the port's deliverer, its state handed over with the round as
 * {@link PushedHostFrames}'s is.
 */
final class LeasedHostFrames implements HostFrames {

    private final PushedHostFrames pushed;
    private final LeasedSeat seat;
    /** The first frame of the round being delivered, for the report. */
    private long roundFrom;
    /** The seat was found lost as the round launched: it lands empty. */
    private boolean refused;

    LeasedHostFrames(PushedHostFrames pushed, LeasedSeat seat) {
        this.pushed = pushed;
        this.seat = seat;
    }

    @Override
    public HostRing ring() {
        return pushed.ring();
    }

    @Override
    public boolean arms() {
        return pushed.arms();
    }

    @Override
    public long published(ProducerView producer) {
        return pushed.published(producer);
    }

    @Override
    public boolean launch(Round r) {
        roundFrom = r.from;
        refused = !seat.mayDeliver(r.from, r.to);
        return !refused && pushed.launch(r); // refused: not deliverable at once; it lands at once, empty
    }

    @Override
    public boolean arm(Round r) {
        return pushed.arm(r);
    }

    @Override
    public boolean landed(Round r) {
        return refused || pushed.landed(r);
    }

    @Override
    public int land(Round r, boolean released) {
        return refused ? ListenerDelivery.EMPTY : pushed.land(r, released);
    }

    /** Whether the seat still holds before the call for frame {@code sequence} ({@link LeasedSeat#mayCall}). */
    @Override
    public boolean mayCall(long from, long sequence) {
        return seat.mayCall(from, sequence);
    }

    @Override
    public void acknowledge(long sequence) {
        if (seat.acknowledge(roundFrom, sequence)) {
            pushed.acknowledge(sequence); // the port's own mirror: its acknowledged position
        }
    }
}

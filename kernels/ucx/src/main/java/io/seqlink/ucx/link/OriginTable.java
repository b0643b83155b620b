package io.seqlink.ucx.link;

/**
 * Where each frame of the receiver's local channel came from: the sender's epoch and the link
 * sequence, per local slot. The link thread writes an entry before it commits and publishes the frame
 * into the channel, so a listener holding that frame reads its entry after the channel's
 * release/acquire pair; an entry is valid while its local stamp is the frame's sequence.
 */
public final class OriginTable {

    private final int slots;
    private final long[] local;
    private final long[] epoch;
    private final long[] link;

    public OriginTable(int slots) {
        this.slots = slots;
        this.local = new long[slots];
        this.epoch = new long[slots];
        this.link = new long[slots];
    }

    void record(long localSequence, long senderEpoch, long linkSequence) {
        int i = (int) ((localSequence - 1) % slots);
        epoch[i] = senderEpoch;
        link[i] = linkSequence;
        local[i] = localSequence;
    }

    /** The link sequence of local frame {@code localSequence}, or -1 when it is not (or no longer) known. */
    public long linkSequence(long localSequence) {
        int i = (int) ((localSequence - 1) % slots);
        return localSequence > 0 && local[i] == localSequence ? link[i] : -1;
    }

    /** The sender epoch of local frame {@code localSequence}, or 0 when it is not (or no longer) known. */
    public long senderEpoch(long localSequence) {
        int i = (int) ((localSequence - 1) % slots);
        return localSequence > 0 && local[i] == localSequence ? epoch[i] : 0;
    }
}

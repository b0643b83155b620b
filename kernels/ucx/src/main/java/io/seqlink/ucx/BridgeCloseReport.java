package io.seqlink.ucx;

/**
 * What a bridge left when it closed, so that every frame it took is accounted for.
 *
 * @param channel      the channel
 * @param role         which end
 * @param taken        frames this end took: staged from the local channel (sender) or published into it (receiver)
 * @param confirmed    of those, frames every receiving consumer acknowledged
 * @param unconfirmed  {@code taken - confirmed}: on a sender, frames a new link would carry again; on a receiver,
 *                     frames published here whose acknowledgement the sender never learnt (it carries them again,
 *                     to the next receiver: at-least-once)
 * @param localBacklog on a sender: frames published in the local channel that the bridge had not taken (they stay
 *                     there, in the channel's own drain report); on a receiver: frames landed but not published
 * @param timedOut     whether the timeout ended the close before everything was confirmed
 */
public record BridgeCloseReport(String channel, BridgeSnapshot.Role role, long taken, long confirmed, long unconfirmed,
        long localBacklog, boolean timedOut) {

    /** Whether everything taken was confirmed and nothing was left behind. */
    public boolean clean() {
        return unconfirmed == 0 && localBacklog == 0;
    }
}

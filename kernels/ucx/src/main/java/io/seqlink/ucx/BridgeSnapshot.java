package io.seqlink.ucx;

import org.jspecify.annotations.Nullable;

/**
 * A bridge's state at one moment, read from counters its link thread writes (cheap; never touches UCX).
 * Sequences are link sequences: the sender numbers the frames it stages from 1, per sender process
 * ({@link #epoch()}).
 *
 * @param channel        the channel carried
 * @param role           sending or receiving end
 * @param state          the link's state
 * @param peer           the peer's address (the receiver's listen address for a sender; the sender's, once known, for a receiver)
 * @param problem        what is wrong, or {@code null}: the last link loss, a refusal, a failed channel
 * @param epoch          the sender process's epoch (0 before the first handshake on a receiver)
 * @param staged         newest frame the sender took from its local channel (on a receiver: newest the sender announced)
 * @param sent           newest frame whose data the sender announced complete at the receiver
 * @param received       newest frame the receiver published into its local channel
 * @param consumed       newest frame every receiving consumer acknowledged: the credit
 * @param bytes          payload bytes sent or received
 * @param reconnects     links lost after a handshake and opened again
 * @param resent         frames put again after a reconnect
 * @param waitingForCredit the sender's window is full: the receiver is behind (lossless backpressure)
 * @param peerSilentMillis how long since the peer's heartbeat last moved (0 when not connected)
 */
public record BridgeSnapshot(String channel, Role role, LinkState state, String peer, @Nullable String problem, long epoch,
        long staged, long sent, long received, long consumed, long bytes, long reconnects, long resent,
        boolean waitingForCredit, long peerSilentMillis) {

    /** Which end of the link. */
    public enum Role {
        SEND, RECEIVE
    }

    /** Frames the sender took that the receiving consumers have not yet all acknowledged: the lag across the link. */
    public long lag() {
        return Math.max(0, staged - consumed);
    }

    /** Frames announced to the receiver but not yet published there. */
    public long inFlight() {
        return Math.max(0, sent - received);
    }
}

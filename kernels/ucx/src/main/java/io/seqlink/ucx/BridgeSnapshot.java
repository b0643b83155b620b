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
 * @param refusals       what this end refused: handshakes, authentication failures, protocol errors, second senders
 */
public record BridgeSnapshot(String channel, Role role, LinkState state, String peer, @Nullable String problem, long epoch,
        long staged, long sent, long received, long consumed, long bytes, long reconnects, long resent,
        boolean waitingForCredit, long peerSilentMillis, Refusals refusals) {

    /** Which end of the link. */
    public enum Role {
        SEND, RECEIVE
    }

    /**
     * What an end refused since it opened (counts only grow).
     *
     * @param handshakes     handshakes refused: an address not allowed, another channel, a slot too large, too many pending
     * @param authFailures   peers that did not prove the shared secret (on a sender: a receiver that did not)
     * @param protocolErrors malformed messages, and messages from an endpoint they do not belong to
     * @param senders        authenticated second senders refused while the channel's link was live
     * @param last           the latest refusal with the peer it came from, or {@code null}
     * @param lastMillisAgo  milliseconds since {@code last}, or -1
     */
    public record Refusals(long handshakes, long authFailures, long protocolErrors, long senders, @Nullable String last,
            long lastMillisAgo) {

        public static final Refusals NONE = new Refusals(0, 0, 0, 0, null, -1);

        /** Whether the latest refusal is at most {@code millis} old. */
        public boolean recent(long millis) {
            return last != null && lastMillisAgo >= 0 && lastMillisAgo <= millis;
        }
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

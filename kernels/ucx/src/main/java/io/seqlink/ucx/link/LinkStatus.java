package io.seqlink.ucx.link;

import io.seqlink.ucx.LinkState;
import org.jspecify.annotations.Nullable;

/**
 * A link's state and counters for snapshots, health and metrics. One writer, the link thread (the
 * owner's close also sets the final state once the link thread has stopped); any thread reads.
 */
public final class LinkStatus {

    private volatile LinkState state = LinkState.CONNECTING;
    private volatile @Nullable String problem;
    private volatile String peer;
    private volatile long epoch;
    private volatile long sent;
    private volatile long received;
    private volatile long consumed;
    private volatile long remoteStaged;
    private volatile long bytes;
    private volatile long reconnects;
    private volatile long resent;
    private volatile long lastPeerBeatNanos;
    private volatile long refusedHandshakes;
    private volatile long authFailures;
    private volatile long protocolErrors;
    private volatile long refusedSenders;
    private volatile @Nullable String lastRefusal;
    private volatile long lastRefusalNanos;

    LinkStatus(String peer) {
        this.peer = peer;
    }

    public LinkState state() {
        return state;
    }

    public @Nullable String problem() {
        return problem;
    }

    public String peer() {
        return peer;
    }

    public long epoch() {
        return epoch;
    }

    public long sent() {
        return sent;
    }

    public long received() {
        return received;
    }

    public long consumed() {
        return consumed;
    }

    /** On a receiver: the newest link sequence the sender announced. */
    public long remoteStaged() {
        return remoteStaged;
    }

    public long bytes() {
        return bytes;
    }

    public long reconnects() {
        return reconnects;
    }

    public long resent() {
        return resent;
    }

    /** Milliseconds since the peer's heartbeat last moved; 0 unless connected. */
    public long peerSilentMillis() {
        LinkState now = state;
        return now == LinkState.CONNECTED || now == LinkState.STALLED ? Math.max(0, (System.nanoTime() - lastPeerBeatNanos) / 1_000_000) : 0;
    }

    /** Why a peer or a message was refused, for {@link #refused}. */
    public enum Refusal {
        /** A handshake refused: not from an allowed address, another channel, a slot too large, too many pending. */
        HANDSHAKE,
        /** A peer that did not prove the shared secret (or, on a sender, a receiver that did not). */
        AUTHENTICATION,
        /** A malformed message, or one from an endpoint it does not belong to. */
        PROTOCOL,
        /** An authenticated second sender of a channel whose link is live. */
        SENDER
    }

    public long refusedHandshakes() {
        return refusedHandshakes;
    }

    public long authFailures() {
        return authFailures;
    }

    public long protocolErrors() {
        return protocolErrors;
    }

    public long refusedSenders() {
        return refusedSenders;
    }

    /** The latest refusal, with the peer it came from, or {@code null} if none. */
    public @Nullable String lastRefusal() {
        return lastRefusal;
    }

    /** Milliseconds since the latest refusal, or -1 if none. */
    public long lastRefusalMillisAgo() {
        return lastRefusal == null ? -1 : Math.max(0, (System.nanoTime() - lastRefusalNanos) / 1_000_000);
    }

    /** The refusal counters as a snapshot's part. */
    public io.seqlink.ucx.BridgeSnapshot.Refusals refusals() {
        return new io.seqlink.ucx.BridgeSnapshot.Refusals(refusedHandshakes, authFailures, protocolErrors, refusedSenders,
                lastRefusal, lastRefusalMillisAgo());
    }

    /** Link thread: counts a refusal of {@code kind}; {@code what} says what and from whom (never a secret). */
    void refused(Refusal kind, String what) {
        switch (kind) {
            case HANDSHAKE -> refusedHandshakes++;
            case AUTHENTICATION -> authFailures++;
            case PROTOCOL -> protocolErrors++;
            case SENDER -> refusedSenders++;
        }
        lastRefusalNanos = System.nanoTime();
        lastRefusal = what;
    }

    void connected(String peerAddress, long epoch, long nowNanos) {
        this.peer = peerAddress;
        this.epoch = epoch;
        this.lastPeerBeatNanos = nowNanos;
        this.problem = null;
        this.state = LinkState.CONNECTED;
    }

    void lost(LinkState next, String why, boolean wasConnected) {
        this.problem = why;
        if (wasConnected) {
            reconnects++;
        }
        this.state = next;
    }

    /** The peer's heartbeat stopped ({@code why}) or moved again ({@code null}); only while connected. */
    void stalled(@Nullable String why) {
        LinkState now = state;
        if (why != null && now == LinkState.CONNECTED) {
            problem = why;
            state = LinkState.STALLED;
        } else if (why == null && now == LinkState.STALLED) {
            problem = null;
            state = LinkState.CONNECTED;
        }
    }

    /** The final state, set by the owner once the link thread has stopped, or by the link thread on a failure. */
    public void finish(LinkState last, @Nullable String why) {
        if (why != null) {
            this.problem = why;
        }
        this.state = last;
    }

    void peerBeat(long nowNanos) {
        lastPeerBeatNanos = nowNanos;
    }

    long lastPeerBeatNanos() {
        return lastPeerBeatNanos;
    }

    void sent(long value) {
        sent = value;
    }

    void received(long value) {
        received = value;
    }

    void consumed(long value) {
        consumed = value;
    }

    void remoteStaged(long value) {
        remoteStaged = value;
    }

    void addBytes(long n) {
        bytes += n;
    }

    void addResent(long n) {
        resent += n;
    }
}

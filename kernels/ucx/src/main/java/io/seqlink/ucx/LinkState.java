package io.seqlink.ucx;

/** Where a bridge's link stands; {@link BridgeSnapshot#problem()} says why when it is not {@link #CONNECTED}. */
public enum LinkState {
    /** No link yet: connecting (sender) or waiting for the sender (receiver). */
    CONNECTING,
    /** Handshaken: frames flow, credits come back, heartbeats arrive. */
    CONNECTED,
    /**
     * Connected, but the peer's heartbeat has not moved for {@code link-timeout}: the link or the peer
     * is stalled. Nothing is torn down (a frozen peer that wakes goes on where it was); UCX's keepalive
     * ends an endpoint whose peer is really gone, and the link is then opened again.
     */
    STALLED,
    /** The link was lost (the peer closed or died, or its heartbeat stopped); reconnecting or waiting for the sender. */
    RECONNECTING,
    /** The peer refused the handshake (another channel, a smaller slot size): fix the configuration; retried slowly. */
    REFUSED,
    /** The local channel failed or closed under the bridge; the bridge stopped. */
    FAILED,
    /** Closed by its owner. */
    CLOSED
}

package io.seqlink.ucx;

/** Where a bridge's link stands; {@link BridgeSnapshot#problem()} says why when it is not {@link #CONNECTED}. */
public enum LinkState {
    /** No link yet: connecting (sender) or waiting for the sender (receiver). */
    CONNECTING,
    /** Handshaken: frames flow, credits come back, heartbeats arrive. */
    CONNECTED,
    /** The link was lost (the peer closed or died, or its heartbeat stopped); reconnecting or waiting for the sender. */
    RECONNECTING,
    /** The peer refused the handshake (another channel, a smaller slot size): fix the configuration; retried slowly. */
    REFUSED,
    /** The local channel failed or closed under the bridge; the bridge stopped. */
    FAILED,
    /** Closed by its owner. */
    CLOSED
}

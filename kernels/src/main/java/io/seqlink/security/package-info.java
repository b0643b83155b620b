/**
 * How two seqlink processes prove to each other that they hold the same secret before one publishes into
 * the other's channel: a {@link io.seqlink.security.SharedSecret} and an HMAC-SHA256 challenge–response
 * with a nonce from each side ({@link io.seqlink.security.PeerChallenge}). Transports that cross a process
 * boundary (the UCX bridge, channels between processes) build their handshakes on it; it does not encrypt.
 */
@NullMarked
package io.seqlink.security;

import org.jspecify.annotations.NullMarked;

package io.seqlink.ucx;

import io.seqlink.channel.Violation;
import io.seqlink.security.SharedSecret;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Who a bridge trusts. With a {@link SharedSecret}, both ends prove it in the handshake (HMAC-SHA256
 * challenge–response over a nonce from each side, see {@code io.seqlink.security.PeerChallenge}), and the
 * link is bound to the endpoint that proved it. Without one, a bridge opens only when
 * {@code allowUnauthenticated} says so explicitly. Immutable; {@link #toString()} never shows the secret.
 *
 * @param secret               the secret both ends share, or {@code null}
 * @param allowUnauthenticated open without a secret (anyone who reaches a receiver's address can then publish
 *                             into its channel): only on a network where every host is trusted
 * @param allowedPeers         a receiver takes connections only from these addresses; empty: from any
 * @param allowWildcard        a receiver may listen on the wildcard address (every interface)
 */
public record BridgeSecurity(@Nullable SharedSecret secret, boolean allowUnauthenticated, List<InetAddress> allowedPeers,
        boolean allowWildcard) {

    /** No secret, nothing allowed: a bridge with these settings refuses to open until a secret is given. */
    public static final BridgeSecurity NONE = new BridgeSecurity(null, false, List.of(), false);

    public BridgeSecurity {
        allowedPeers = List.copyOf(allowedPeers);
    }

    /** Whether the handshake authenticates (a secret is configured). */
    public boolean authenticates() {
        return secret != null;
    }

    /** Whether a receiver takes a connection from {@code address}. */
    public boolean allows(@Nullable InetAddress address) {
        return allowedPeers.isEmpty() || (address != null && allowedPeers.contains(address));
    }

    /**
     * The problems of these settings for a bridge whose properties start with {@code prefix}
     * ({@code seqlink.ucx.receivers.frames.}, say), listening on {@code listen} ({@code null} for a sender).
     */
    public List<Violation> validate(String prefix, @Nullable InetSocketAddress listen) {
        java.util.ArrayList<Violation> v = new java.util.ArrayList<>();
        if (secret == null && !allowUnauthenticated) {
            v.add(new Violation(prefix + "secret", "no secret is configured: without one, "
                    + (listen != null ? "anyone who reaches " + listen + " could publish into the channel"
                            : "the sender would carry frames to whoever answers at its peer address"),
                    "set " + prefix + "secret or " + prefix + "secret-file to the same secret on both ends (at least "
                            + SharedSecret.MIN_BYTES + " bytes, e.g. from 'openssl rand -base64 32'; in Java "
                            + "BridgeSettings.withSecret), or set " + prefix + "allow-unauthenticated: true "
                            + "(BridgeSettings.allowingUnauthenticated()) on a network where every host is trusted"));
        }
        if (listen != null && listen.getAddress() != null && listen.getAddress().isAnyLocalAddress() && !allowWildcard) {
            v.add(new Violation(prefix + "listen", "listen is " + listen + ", the wildcard address: the receiver would take "
                    + "connections on every interface", "listen on the address of the interface the sender reaches, e.g. "
                    + "10.0.0.2:13337, or set " + prefix + "allow-wildcard: true (BridgeSettings.allowingWildcard())"));
        }
        return v;
    }

    @Override
    public String toString() {
        return "BridgeSecurity[secret=" + (secret == null ? "none" : "redacted") + ", allowUnauthenticated="
                + allowUnauthenticated + ", allowedPeers=" + allowedPeers + ", allowWildcard=" + allowWildcard + "]";
    }
}

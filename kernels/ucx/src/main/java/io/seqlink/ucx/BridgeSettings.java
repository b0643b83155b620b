package io.seqlink.ucx;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.channel.Violation;
import io.seqlink.security.SharedSecret;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How a bridge's link behaves. Construction never throws; {@link #validate(String)} lists every
 * problem and {@link #checked(String)} throws {@link SeqlinkConfigurationException} with the list.
 *
 * @param window            frames in flight across the link: slots of the sender's send ring and the
 *                          receiver's landing ring (each {@code window x stride} of registered memory)
 * @param heartbeatInterval how often each end tells the other it is alive (and the receiver re-sends its status)
 * @param linkTimeout       a connected peer whose heartbeat has not moved for this long is taken as gone:
 *                          the link is closed and opened again
 * @param connectTimeout    how long a connection attempt may take to be answered by the handshake
 * @param reconnectMin      the first wait before connecting again; doubled per failed attempt
 * @param reconnectMax      the longest wait between attempts
 * @param security          the shared secret, the allowlist, and what is allowed without them
 */
public record BridgeSettings(int window, Duration heartbeatInterval, Duration linkTimeout, Duration connectTimeout,
        Duration reconnectMin, Duration reconnectMax, BridgeSecurity security) {

    /** Link behaviour with {@link BridgeSecurity#NONE}: no secret yet (a bridge refuses to open until given one). */
    public BridgeSettings(int window, Duration heartbeatInterval, Duration linkTimeout, Duration connectTimeout,
            Duration reconnectMin, Duration reconnectMax) {
        this(window, heartbeatInterval, linkTimeout, connectTimeout, reconnectMin, reconnectMax, BridgeSecurity.NONE);
    }

    public static final int DEFAULT_WINDOW = 64;
    public static final int MAX_WINDOW = 1 << 16;

    public static BridgeSettings defaults() {
        return new BridgeSettings(DEFAULT_WINDOW, Duration.ofMillis(100), Duration.ofSeconds(3), Duration.ofSeconds(2),
                Duration.ofMillis(50), Duration.ofSeconds(2));
    }

    public BridgeSettings withWindow(int slots) {
        return new BridgeSettings(slots, heartbeatInterval, linkTimeout, connectTimeout, reconnectMin, reconnectMax, security);
    }

    public BridgeSettings withTimeouts(Duration heartbeat, Duration link, Duration connect) {
        return new BridgeSettings(window, heartbeat, link, connect, reconnectMin, reconnectMax, security);
    }

    public BridgeSettings withSecurity(BridgeSecurity trust) {
        return new BridgeSettings(window, heartbeatInterval, linkTimeout, connectTimeout, reconnectMin, reconnectMax, trust);
    }

    /** These settings with {@code secret}: both ends must hold the same one (see {@link BridgeSecurity}). */
    public BridgeSettings withSecret(SharedSecret secret) {
        return withSecurity(new BridgeSecurity(secret, security.allowUnauthenticated(), security.allowedPeers(),
                security.allowWildcard()));
    }

    /** These settings opening without a secret (anyone who reaches a receiver can publish): trusted networks only. */
    public BridgeSettings allowingUnauthenticated() {
        return withSecurity(new BridgeSecurity(security.secret(), true, security.allowedPeers(), security.allowWildcard()));
    }

    /** These settings with a receiver taking connections only from {@code peers}. */
    public BridgeSettings withAllowedPeers(List<InetAddress> peers) {
        return withSecurity(new BridgeSecurity(security.secret(), security.allowUnauthenticated(), peers,
                security.allowWildcard()));
    }

    /** These settings with a receiver allowed to listen on the wildcard address (every interface). */
    public BridgeSettings allowingWildcard() {
        return withSecurity(new BridgeSecurity(security.secret(), security.allowUnauthenticated(), security.allowedPeers(),
                true));
    }

    public List<Violation> validate(String prefix) {
        List<Violation> v = new ArrayList<>();
        if (window < 1 || window > MAX_WINDOW) {
            v.add(new Violation(prefix + "window", "window is " + window + ", outside 1 to " + MAX_WINDOW,
                    "set a window of frames in flight, e.g. " + DEFAULT_WINDOW));
        }
        positive(v, prefix + "heartbeat-interval", heartbeatInterval, "100ms");
        positive(v, prefix + "link-timeout", linkTimeout, "3s");
        positive(v, prefix + "connect-timeout", connectTimeout, "2s");
        positive(v, prefix + "reconnect-min", reconnectMin, "50ms");
        positive(v, prefix + "reconnect-max", reconnectMax, "2s");
        if (v.isEmpty() && linkTimeout.compareTo(heartbeatInterval.multipliedBy(3)) < 0) {
            v.add(new Violation(prefix + "link-timeout", "link timeout " + linkTimeout + " is less than three heartbeats of "
                    + heartbeatInterval + ": a live peer would be taken for gone", "set link-timeout to at least "
                    + heartbeatInterval.multipliedBy(3)));
        }
        if (v.isEmpty() && reconnectMax.compareTo(reconnectMin) < 0) {
            v.add(new Violation(prefix + "reconnect-max", "reconnect-max " + reconnectMax + " is below reconnect-min "
                    + reconnectMin, "set reconnect-max to at least " + reconnectMin));
        }
        return v;
    }

    /**
     * These settings, or a {@link SeqlinkConfigurationException} naming every problem under {@code prefix},
     * the link's and the {@link #security()}'s for a bridge listening on {@code listen} ({@code null}: a sender).
     */
    public BridgeSettings checked(String prefix, @Nullable InetSocketAddress listen) {
        List<Violation> v = new ArrayList<>(validate(prefix));
        v.addAll(security.validate(prefix, listen));
        if (!v.isEmpty()) {
            throw new SeqlinkConfigurationException(v);
        }
        return this;
    }

    /** These settings, or a {@link SeqlinkConfigurationException} naming every problem under {@code prefix}. */
    public BridgeSettings checked(String prefix) {
        List<Violation> v = validate(prefix);
        if (!v.isEmpty()) {
            throw new SeqlinkConfigurationException(v);
        }
        return this;
    }

    private static void positive(List<Violation> v, String property, Duration d, String example) {
        if (d == null || d.isNegative() || d.isZero()) {
            v.add(new Violation(property, property.substring(property.lastIndexOf('.') + 1) + " is " + d,
                    "set a positive duration, e.g. " + example));
        }
    }
}

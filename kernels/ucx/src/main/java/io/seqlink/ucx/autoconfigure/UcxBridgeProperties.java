package io.seqlink.ucx.autoconfigure;

import io.seqlink.ucx.BridgeSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code seqlink.ucx.*}: channels carried across hosts on UCX.
 *
 * <pre>
 * seqlink.ucx:
 *   config: { TLS: tcp }                 # UCX_* settings, without the prefix, over the environment's
 *   senders:
 *     frames: { peer: 10.0.0.2:13337, consumer-device: 1, secret-file: /etc/seqlink/frames.key }   # carry 'frames' there
 *   receivers:
 *     frames: { listen: 10.0.0.2:13337, secret-file: /etc/seqlink/frames.key }   # publish what arrives into 'frames'
 * </pre>
 *
 * @param enabled      Whether the configured bridges open. When false, nothing loads UCX.
 * @param config       UCX settings by their UCX_ name without the prefix, over the environment's (e.g. 'TLS: tcp',
 *                     'NET_DEVICES: mlx5_0:1'). CM_REUSEADDR is 'y' unless set here.
 * @param senders      Bridges that carry a local channel to another host, by channel name.
 * @param receivers    Bridges that publish what arrives from another host into a local channel, by channel name.
 * @param link         How every link behaves.
 * @param closeTimeout How long closing gives each bridge to finish what it holds: a sender waits for its backlog to be
 *                     taken and confirmed, a receiver for its consumers to acknowledge what it published.
 */
@ConfigurationProperties("seqlink.ucx")
public record UcxBridgeProperties(@DefaultValue("true") boolean enabled, @DefaultValue Map<String, String> config,
        @DefaultValue Map<String, Sender> senders, @DefaultValue Map<String, Receiver> receivers, @DefaultValue Link link,
        @DefaultValue("10s") Duration closeTimeout) {

    /**
     * The sending end of a channel.
     *
     * @param peer                 the receiver's {@code host:port}
     * @param consumerDevice       the local channel's consumer whose frames cross (it must have no listener)
     * @param window               frames in flight; default {@code seqlink.ucx.link.window}
     * @param secret               the secret shared with the receiver (at least 16 bytes); never logged or shown
     * @param secretFile           a file holding the secret, instead of {@code secret}
     * @param allowUnauthenticated link without a secret (trusted networks only)
     */
    public record Sender(@Nullable String peer, @DefaultValue("-1") int consumerDevice, @Nullable Integer window,
            @Nullable String secret, @Nullable Path secretFile, @DefaultValue("false") boolean allowUnauthenticated) {

        /** Never shows the secret. */
        @Override
        public String toString() {
            return "Sender[peer=" + peer + ", consumerDevice=" + consumerDevice + ", window=" + window + ", secret="
                    + (secret == null ? "none" : "redacted") + ", secretFile=" + secretFile + ", allowUnauthenticated="
                    + allowUnauthenticated + "]";
        }
    }

    /**
     * The receiving end of a channel.
     *
     * @param listen               {@code host:port} to listen on, a concrete address ({@code 10.0.0.2:13337}; port 0
     *                             picks one); the wildcard {@code 0.0.0.0} only with {@code allow-wildcard}
     * @param window               frames in flight; default {@code seqlink.ucx.link.window}
     * @param secret               the secret shared with the sender (at least 16 bytes); never logged or shown
     * @param secretFile           a file holding the secret, instead of {@code secret}
     * @param allowUnauthenticated take a sender without a secret (anyone who reaches the address can publish)
     * @param allowWildcard        allow a wildcard listen address (every interface)
     * @param allowedPeers         IP addresses a sender may connect from; empty: any
     */
    public record Receiver(@Nullable String listen, @Nullable Integer window, @Nullable String secret, @Nullable Path secretFile,
            @DefaultValue("false") boolean allowUnauthenticated, @DefaultValue("false") boolean allowWildcard,
            @DefaultValue List<String> allowedPeers) {

        /** Never shows the secret. */
        @Override
        public String toString() {
            return "Receiver[listen=" + listen + ", window=" + window + ", secret=" + (secret == null ? "none" : "redacted")
                    + ", secretFile=" + secretFile + ", allowUnauthenticated=" + allowUnauthenticated + ", allowWildcard="
                    + allowWildcard + ", allowedPeers=" + allowedPeers + "]";
        }
    }

    /**
     * Link behaviour, for every bridge.
     *
     * @param window            Frames in flight across each link, 1 to 65536: slots of the sender's send ring and of the
     *                          receiver's landing ring (each window times the slot stride of registered memory).
     * @param heartbeatInterval How often each end tells the other it is alive (the receiver also resends its credit).
     * @param linkTimeout       Peer silence after which the link is reported stalled (health DOWN); at least three
     *                          heartbeats. Nothing is torn down: a peer that only paused goes on where it was.
     * @param connectTimeout    How long a connection attempt may take to be answered by the handshake, and an orderly
     *                          close to finish.
     * @param reconnectMin      The first wait before connecting again; doubled per failed attempt.
     * @param reconnectMax      The longest wait between attempts.
     */
    public record Link(@DefaultValue("64") int window, @DefaultValue("100ms") Duration heartbeatInterval,
            @DefaultValue("3s") Duration linkTimeout, @DefaultValue("2s") Duration connectTimeout,
            @DefaultValue("50ms") Duration reconnectMin, @DefaultValue("2s") Duration reconnectMax) {

        BridgeSettings settings(@Nullable Integer windowOverride) {
            return new BridgeSettings(windowOverride != null ? windowOverride : window, heartbeatInterval, linkTimeout,
                    connectTimeout, reconnectMin, reconnectMax);
        }
    }
}

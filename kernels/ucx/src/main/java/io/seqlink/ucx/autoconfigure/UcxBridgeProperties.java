package io.seqlink.ucx.autoconfigure;

import io.seqlink.ucx.BridgeSettings;
import java.time.Duration;
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
 *     frames: { peer: 10.0.0.2:13337, consumer-device: 1 }   # carry local channel 'frames' to that host
 *   receivers:
 *     frames: { listen: 0.0.0.0:13337 }                      # publish what arrives into local channel 'frames'
 * </pre>
 *
 * @param enabled      whether configured bridges open (default true)
 * @param config       UCX configuration, e.g. {@code TLS: tcp} or {@code NET_DEVICES: mlx5_0:1}
 * @param senders      per local channel: where to carry it
 * @param receivers    per local channel: where to listen for its sender
 * @param link         how every link behaves
 * @param closeTimeout how long closing gives each bridge to finish what it holds
 */
@ConfigurationProperties("seqlink.ucx")
public record UcxBridgeProperties(@DefaultValue("true") boolean enabled, @DefaultValue Map<String, String> config,
        @DefaultValue Map<String, Sender> senders, @DefaultValue Map<String, Receiver> receivers, @DefaultValue Link link,
        @DefaultValue("10s") Duration closeTimeout) {

    /**
     * The sending end of a channel.
     *
     * @param peer           the receiver's {@code host:port}
     * @param consumerDevice the local channel's consumer whose frames cross (it must have no listener)
     * @param window         frames in flight; default {@code seqlink.ucx.link.window}
     */
    public record Sender(@Nullable String peer, @DefaultValue("-1") int consumerDevice, @Nullable Integer window) {
    }

    /**
     * The receiving end of a channel.
     *
     * @param listen {@code host:port} to listen on ({@code 0.0.0.0:13337}; port 0 picks one)
     * @param window frames in flight; default {@code seqlink.ucx.link.window}
     */
    public record Receiver(@Nullable String listen, @Nullable Integer window) {
    }

    /**
     * Link behaviour, for every bridge.
     *
     * @param window            frames in flight across each link
     * @param heartbeatInterval how often each end tells the other it is alive
     * @param linkTimeout       peer silence after which the link is reported stalled
     * @param connectTimeout    how long a connection attempt may take to be answered
     * @param reconnectMin      first wait before connecting again (doubles per failure)
     * @param reconnectMax      longest wait between attempts
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

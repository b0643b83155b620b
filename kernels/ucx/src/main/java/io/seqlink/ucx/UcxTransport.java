package io.seqlink.ucx;

import io.seqlink.channel.PublishChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's UCX context and the bridges opened on it. Spring-free:
 *
 * <pre>{@code
 * BridgeSettings settings = BridgeSettings.defaults().withSecret(SharedSecret.fromFile(Path.of("/etc/seqlink/frames.key"),
 *         "the frames bridge's secret"));
 * try (UcxTransport ucx = UcxTransport.open(Map.of("TLS", "tcp"))) {
 *     SendingBridge out = ucx.openSender(frames, 1, new InetSocketAddress("10.0.0.2", 13337), settings);
 *     ...
 * }
 * }</pre>
 *
 * <p>Threads: safe from any thread. {@link #close()} closes every bridge still open, then the context.
 */
public final class UcxTransport implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UcxTransport.class);

    private final UcpContext context;
    private final UcxInfo info;
    private final List<UcxBridge> bridges = new CopyOnWriteArrayList<>();
    private final Duration closeTimeout;
    private volatile boolean closed;

    private UcxTransport(UcpContext context, UcxInfo info, Duration closeTimeout) {
        this.context = context;
        this.info = info;
        this.closeTimeout = closeTimeout;
    }

    /**
     * Opens a UCX context with RMA and active messages, applying {@code config} ({@code UCX_} names
     * without the prefix, e.g. {@code TLS=tcp}) over the environment, and {@code CM_REUSEADDR=y} unless
     * given. Throws
     * {@link UcxUnavailableException}, saying what to install, when UCX cannot be loaded.
     */
    public static UcxTransport open(Map<String, String> config) {
        return open(config, Duration.ofSeconds(10));
    }

    /** {@link #open(Map)}; {@code closeTimeout} bounds what {@link #close()} gives each bridge. */
    public static UcxTransport open(Map<String, String> config, Duration closeTimeout) {
        UcxInfo info = UcxEnvironment.requireAvailable();
        // each bridge's link thread owns a worker of this one context, so workers of it are made, progressed and destroyed
        // on several threads at once: UCX then needs the context's own thread safety (mt_workers_shared; UCX's
        // multi-threaded-context tests set it for exactly this), which is off unless asked for
        UcpParams params = new UcpParams().requestAmFeature().setMtWorkersShared(true);
        if (!config.containsKey("CM_REUSEADDR")) {
            params.setConfig("CM_REUSEADDR", "y"); // a restarted receiver binds its port again at once
        }
        config.forEach(params::setConfig);
        UcpContext context = new UcpContext(params);
        log.info("seqlink UCX: {}{}", info.describe(), info.cudaMemory() ? "" : " (no CUDA memory: frames cross from host memory)");
        return new UcxTransport(context, info, closeTimeout);
    }

    public UcxInfo info() {
        return info;
    }

    /**
     * Opens the sending end of {@code channel}: subscribes to its consumer {@code consumerDevice} (which
     * must have no listener) and connects to {@code receiver}, reconnecting whenever the link is lost.
     * Throws {@link io.seqlink.SeqlinkConfigurationException} without a secret
     * ({@link BridgeSettings#withSecret}) unless {@link BridgeSettings#allowingUnauthenticated()}.
     */
    public SendingBridge openSender(PublishChannel channel, int consumerDevice, InetSocketAddress receiver,
            BridgeSettings settings) {
        settings.checked("ucx.senders." + channel.name() + ".", null);
        return track(new SendingBridge(checkOpen(), channel, consumerDevice, receiver, settings));
    }

    /**
     * Opens the receiving end of {@code channel}: listens on {@code listen} (a concrete address, e.g.
     * {@code new InetSocketAddress("10.0.0.2", 13337)}; port 0: any; the wildcard address only with
     * {@link BridgeSettings#allowingWildcard()}) and publishes into it what an authenticated sender sends.
     * Throws {@link io.seqlink.SeqlinkConfigurationException} without a secret unless
     * {@link BridgeSettings#allowingUnauthenticated()}.
     */
    public ReceivingBridge openReceiver(PublishChannel channel, InetSocketAddress listen, BridgeSettings settings) {
        settings.checked("ucx.receivers." + channel.name() + ".", listen);
        return track(new ReceivingBridge(checkOpen(), channel, listen, settings));
    }

    public List<UcxBridge> bridges() {
        return List.copyOf(bridges);
    }

    private synchronized UcpContext checkOpen() {
        if (closed) {
            throw new IllegalStateException("the UCX transport is closed");
        }
        return context;
    }

    private synchronized <B extends UcxBridge> B track(B bridge) {
        if (closed) {
            bridge.close(Duration.ZERO);
            throw new IllegalStateException("the UCX transport closed while the bridge of '" + bridge.channel() + "' opened");
        }
        bridges.add(bridge);
        return bridge;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (UcxBridge b : bridges) {
            BridgeCloseReport r = b.close(closeTimeout);
            if (!r.clean()) {
                log.warn("seqlink UCX: {}", r);
            }
        }
        context.close();
    }
}

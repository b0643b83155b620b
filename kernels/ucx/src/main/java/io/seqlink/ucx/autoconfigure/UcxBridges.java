package io.seqlink.ucx.autoconfigure;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.BridgeCloseReport;
import io.seqlink.ucx.BridgeSecurity;
import io.seqlink.ucx.BridgeSettings;
import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.UcxBridge;
import io.seqlink.ucx.UcxTransport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The configured bridges of one role as a lifecycle, in phases around the listener registry's
 * ({@link ChannelListenerEndpointRegistry#DEFAULT_PHASE}). Receivers ({@link #RECEIVER_PHASE}) start
 * after the registry started the launcher and stop before it drains the channels, so nothing new
 * arrives during the drain and the last credits reach the sender. Senders ({@link #SENDER_PHASE}) start
 * before the registry and stop after its drain, so the drain carries every published frame across.
 *
 * <p>Threads: lifecycle calls come from Spring; {@link #bridges()} is safe from any thread.
 */
public final class UcxBridges implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UcxBridges.class);

    /** After the listener registry starts, before it stops. */
    public static final int RECEIVER_PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE + 50;
    /** Before the listener registry starts, after it stops. */
    public static final int SENDER_PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE - 100;

    private final BridgeSnapshot.Role role;
    private final SeqlinkRuntime runtime;
    private final UcxTransport transport;
    private final UcxBridgeProperties properties;
    private final Map<String, UcxBridge> bridges = new ConcurrentHashMap<>();
    private volatile boolean running;

    UcxBridges(BridgeSnapshot.Role role, SeqlinkRuntime runtime, UcxTransport transport, UcxBridgeProperties properties) {
        this.role = role;
        this.runtime = runtime;
        this.transport = transport;
        this.properties = properties;
        List<Violation> v = validate();
        if (!v.isEmpty()) {
            throw new SeqlinkConfigurationException(v);
        }
    }

    public BridgeSnapshot.Role role() {
        return role;
    }

    /** The configured channel names of this role (their bridges open at {@link #start()}). */
    public List<String> channels() {
        return List.copyOf((role == BridgeSnapshot.Role.SEND ? properties.senders() : properties.receivers()).keySet());
    }

    /** The snapshot of {@code channel}'s bridge, or {@code null} while it is not open. */
    public @Nullable BridgeSnapshot snapshot(String channel) {
        UcxBridge b = bridges.get(channel);
        return b == null ? null : b.snapshot();
    }

    /** The open bridges by channel name. */
    public Map<String, UcxBridge> bridges() {
        return Map.copyOf(bridges);
    }

    private List<Violation> validate() {
        List<Violation> v = new ArrayList<>();
        Map<String, ?> configured = role == BridgeSnapshot.Role.SEND ? properties.senders() : properties.receivers();
        String kind = role == BridgeSnapshot.Role.SEND ? "senders" : "receivers";
        configured.forEach((name, end) -> {
            String prefix = "seqlink.ucx." + kind + "." + name + ".";
            if (runtime.channel(name).isEmpty()) {
                v.add(new Violation(prefix.substring(0, prefix.length() - 1), "there is no channel '" + name + "' to "
                        + (role == BridgeSnapshot.Role.SEND ? "carry" : "publish into") + "; channels are "
                        + runtime.channels().stream().map(PublishChannel::name).toList(), "configure seqlink.channels." + name));
            }
            String address = end instanceof UcxBridgeProperties.Sender s ? s.peer() : ((UcxBridgeProperties.Receiver) end).listen();
            String key = role == BridgeSnapshot.Role.SEND ? "peer" : "listen";
            InetSocketAddress parsed = parse(address);
            if (parsed == null) {
                v.add(new Violation(prefix + key, key + " is '" + address + "', not host:port", "set e.g. 10.0.0.2:13337"
                        + (role == BridgeSnapshot.Role.SEND ? " (the receiver's listen address)" : " (this host's address the "
                                + "sender reaches)")));
            }
            try {
                BridgeSecurity security = security(name, end);
                v.addAll(security.validate(prefix, role == BridgeSnapshot.Role.RECEIVE ? parsed : null));
            } catch (IllegalArgumentException ex) {
                v.add(new Violation(prefix + "secret", String.valueOf(ex.getMessage()), "give a secret of at least "
                        + SharedSecret.MIN_BYTES + " bytes in " + prefix + "secret or a readable " + prefix + "secret-file"));
                if (end instanceof UcxBridgeProperties.Receiver r) { // the listen address's problems all the same
                    v.addAll(new BridgeSecurity(null, true, List.of(), r.allowWildcard()).validate(prefix, parsed));
                }
            }
            if (end instanceof UcxBridgeProperties.Sender s) {
                runtime.channel(name).filter(ch -> !ch.consumerDevices().contains(s.consumerDevice())).ifPresent(ch -> v.add(
                        new Violation(prefix + "consumer-device", "consumer-device " + s.consumerDevice() + " is not a consumer of "
                                + "channel '" + name + "' " + ch.consumerDevices(), "add a consumer device for the bridge to "
                                + "seqlink.channels." + name + ".consumers and name it here")));
                v.addAll(properties.link().settings(s.window()).validate(prefix));
            } else {
                v.addAll(properties.link().settings(((UcxBridgeProperties.Receiver) end).window()).validate(prefix));
            }
        });
        return v;
    }

    /** The security settings of a configured end; throws {@link IllegalArgumentException} for a bad secret or address. */
    private BridgeSecurity security(String name, Object end) {
        String kind = role == BridgeSnapshot.Role.SEND ? "senders" : "receivers";
        String prefix = "seqlink.ucx." + kind + "." + name + ".";
        @Nullable String secret;
        @Nullable Path file;
        boolean unauthenticated;
        boolean wildcard = false;
        List<InetAddress> peers = new ArrayList<>();
        if (end instanceof UcxBridgeProperties.Sender s) {
            secret = s.secret();
            file = s.secretFile();
            unauthenticated = s.allowUnauthenticated();
        } else {
            UcxBridgeProperties.Receiver r = (UcxBridgeProperties.Receiver) end;
            secret = r.secret();
            file = r.secretFile();
            unauthenticated = r.allowUnauthenticated();
            wildcard = r.allowWildcard();
            for (String peer : r.allowedPeers()) {
                peers.add(literalAddress(peer, prefix + "allowed-peers"));
            }
        }
        if (secret != null && file != null) {
            throw new IllegalArgumentException(prefix + "secret and " + prefix + "secret-file are both set: give one");
        }
        SharedSecret shared = secret != null ? SharedSecret.of(secret, prefix + "secret")
                : file != null ? SharedSecret.fromFile(file, prefix + "secret-file") : null;
        return new BridgeSecurity(shared, unauthenticated, peers, wildcard);
    }

    /** An IP address literal (never a name to resolve: an allowlist must not depend on DNS). */
    private static InetAddress literalAddress(String text, String property) {
        String t = text.strip();
        if (!t.matches("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException(property + ": '" + t + "' is not an IP address (give addresses such as 10.0.0.1)");
        }
        try {
            return InetAddress.getByName(t);
        } catch (java.net.UnknownHostException ex) {
            throw new IllegalArgumentException(property + ": '" + t + "' is not an IP address", ex);
        }
    }

    private BridgeSettings settings(String name, Object end, @Nullable Integer window) {
        return properties.link().settings(window).withSecurity(security(name, end));
    }

    /** An address {@link #validate} accepted. */
    private static InetSocketAddress validAddress(@Nullable String address) {
        return Objects.requireNonNull(parse(address), "validate() rejects an address that is not host:port");
    }

    /** {@code host:port} as an address, or {@code null} when {@code address} is missing or not of that form. */
    static @Nullable InetSocketAddress parse(@Nullable String address) {
        if (address == null) {
            return null;
        }
        int colon = address.lastIndexOf(':');
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            return colon > 0 && port >= 0 && port < 65536 ? new InetSocketAddress(address.substring(0, colon), port) : null;
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (role == BridgeSnapshot.Role.SEND) {
            properties.senders().forEach((name, s) -> bridges.put(name, transport.openSender(runtime.channel(name).orElseThrow(),
                    s.consumerDevice(), validAddress(s.peer()), settings(name, s, s.window()))));
        } else {
            properties.receivers().forEach((name, r) -> bridges.put(name, transport.openReceiver(
                    runtime.channel(name).orElseThrow(), validAddress(r.listen()), settings(name, r, r.window()))));
        }
        running = true;
    }

    @Override
    public synchronized void stop() {
        for (UcxBridge b : bridges.values()) {
            BridgeCloseReport r = b.close(properties.closeTimeout());
            if (r.clean()) {
                log.info("seqlink UCX: {} of '{}' closed: {} frame(s), all confirmed", role, r.channel(), r.taken());
            } else {
                log.warn("seqlink UCX: {} of '{}' closed with frames unconfirmed: {}", role, r.channel(), r);
            }
        }
        bridges.clear(); // start() opens new ones on the same channels
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return role == BridgeSnapshot.Role.SEND ? SENDER_PHASE : RECEIVER_PHASE;
    }
}

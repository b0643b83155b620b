package io.seqlink.ucx.autoconfigure;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.UcxNetDevices;
import io.seqlink.ucx.UcxTransport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * UCX bridges configured under {@code seqlink.ucx.senders} and {@code seqlink.ucx.receivers}: the
 * process's {@link UcxTransport} and one {@link UcxBridges} lifecycle per role. Nothing loads UCX
 * unless a bridge is configured. Where every bridge address is a loopback one and neither
 * {@code seqlink.ucx.config.NET_DEVICES} nor {@code UCX_NET_DEVICES} is set, UCX is given
 * {@code NET_DEVICES=lo}, so its own transport listeners stay on loopback too. When UCX's libraries are missing or mismatched, startup fails with a
 * report that says what to install.
 */
@AutoConfiguration(after = SeqlinkChannelsAutoConfiguration.class)
@ConditionalOnClass(name = "org.openucx.jucx.ucp.UcpContext")
@ConditionalOnBooleanProperty(name = "seqlink.ucx.enabled", matchIfMissing = true)
@ConditionalOnBean(SeqlinkRuntime.class)
@Conditional(OnBridgesConfiguredCondition.class)
@EnableConfigurationProperties(UcxBridgeProperties.class)
public final class UcxBridgeAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(UcxBridgeAutoConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    UcxTransport ucxTransport(UcxBridgeProperties properties) {
        Map<String, String> config = new HashMap<>(properties.config());
        if (!config.containsKey(UcxNetDevices.SETTING) && System.getenv("UCX_" + UcxNetDevices.SETTING) == null) {
            List<InetSocketAddress> addresses = new ArrayList<>();
            properties.receivers().values().forEach(r -> add(addresses, r.listen()));
            properties.senders().values().forEach(s -> add(addresses, s.peer()));
            Optional<String> devices = UcxNetDevices.forAddresses(addresses);
            if (devices.isPresent()) {
                config.put(UcxNetDevices.SETTING, devices.get()); // every bridge on loopback: UCX's own listeners too
            } else {
                log.info("seqlink UCX: UCX opens its transport listeners on every network device it finds; restrict them "
                        + "with seqlink.ucx.config.NET_DEVICES (e.g. eth0, or mlx5_0:1 for an RDMA port) and TLS");
            }
        }
        return UcxTransport.open(config, properties.closeTimeout());
    }

    private static void add(List<InetSocketAddress> addresses, @Nullable String address) {
        InetSocketAddress a = UcxBridges.parse(address);
        if (a != null) {
            addresses.add(a);
        }
    }

    @Bean
    UcxBridges ucxSenders(SeqlinkRuntime runtime, UcxTransport transport, UcxBridgeProperties properties) {
        return new UcxBridges(BridgeSnapshot.Role.SEND, runtime, transport, properties);
    }

    @Bean
    UcxBridges ucxReceivers(SeqlinkRuntime runtime, UcxTransport transport, UcxBridgeProperties properties) {
        return new UcxBridges(BridgeSnapshot.Role.RECEIVE, runtime, transport, properties);
    }
}

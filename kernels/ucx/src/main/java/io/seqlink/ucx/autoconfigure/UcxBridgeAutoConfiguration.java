package io.seqlink.ucx.autoconfigure;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.ucx.BridgeSnapshot;
import io.seqlink.ucx.UcxTransport;
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
 * unless a bridge is configured; when UCX's libraries are missing or mismatched, startup fails with a
 * report that says what to install.
 */
@AutoConfiguration(after = SeqlinkChannelsAutoConfiguration.class)
@ConditionalOnClass(name = "org.openucx.jucx.ucp.UcpContext")
@ConditionalOnBooleanProperty(name = "seqlink.ucx.enabled", matchIfMissing = true)
@ConditionalOnBean(SeqlinkRuntime.class)
@Conditional(OnBridgesConfiguredCondition.class)
@EnableConfigurationProperties(UcxBridgeProperties.class)
public final class UcxBridgeAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    UcxTransport ucxTransport(UcxBridgeProperties properties) {
        return UcxTransport.open(properties.config(), properties.closeTimeout());
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

package io.seqlink.autoconfigure.endpoint;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.spring.endpoint.SeqlinkEndpoint;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@code seqlink} actuator endpoint, when it is available (exposed, and access not {@code none}).
 * Read-only unless {@code management.endpoint.seqlink.access=unrestricted}.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(SeqlinkEndpoint.class)
public final class SeqlinkEndpointAutoConfiguration {

    @Bean
    @ConditionalOnBean(SeqlinkRuntime.class)
    @ConditionalOnMissingBean
    SeqlinkEndpoint seqlinkEndpoint(SeqlinkRuntime runtime, ObjectProvider<ChannelListenerEndpointRegistry> registry) {
        return new SeqlinkEndpoint(runtime, (channel, device) -> {
            ChannelListenerEndpointRegistry r = registry.getIfAvailable();
            return r == null ? Optional.empty() : r.listenerId(channel, device);
        });
    }
}

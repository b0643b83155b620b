package io.seqlink.autoconfigure;

import io.seqlink.SeqlinkRuntime;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * seqlink runtime: opens the backend ({@code seqlink.backend}), verifies the links the configured
 * channels use, and opens the channels, all at startup. A configuration problem, an unusable backend
 * or an unsupported link fails startup with a report (see the failure analyzers); the configuration
 * itself (values, channel names, and {@code seqlink.*} keys that name no property, unless
 * {@code seqlink.fail-on-unknown-properties=false}) is checked before any bean is created
 * ({@link SeqlinkConfigurationCheck}). The runtime's
 * launcher is started later, once the context is ready, by the listener registry.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqlinkProperties.class)
public final class SeqlinkAutoConfiguration {

    /** The configuration's check, before any bean is created (an application's bean injecting a channel included). */
    @Bean
    static SeqlinkConfigurationCheck seqlinkConfigurationCheck(Environment environment) {
        return new SeqlinkConfigurationCheck(environment);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SeqlinkRuntime seqlinkRuntime(SeqlinkProperties properties, ObjectProvider<SeqlinkRuntimeBuilderCustomizer> customizers,
            ObjectProvider<ChannelSpecCustomizer> specCustomizers, ConfigurableListableBeanFactory beanFactory) {
        // the keys and values were checked before any bean was created (SeqlinkConfigurationCheck); the host listeners
        // are known from the bean definitions, so their channels open with the push to host memory
        return SeqlinkRuntimeFactory.create(properties, List.of(), customizers.orderedStream().toList(),
                HostListenerScan.scan(beanFactory), specCustomizers.orderedStream().toList());
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.SeqlinkRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * seqlink runtime: opens the backend ({@code seqlink.backend}), verifies the links the configured
 * channels use, and opens the channels, all at startup. A configuration problem, an unusable backend
 * or an unsupported link fails startup with a report (see the failure analyzers). The runtime's
 * launcher is started later, once the context is ready, by the listener registry.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqlinkProperties.class)
public final class SeqlinkAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SeqlinkRuntime seqlinkRuntime(SeqlinkProperties properties, ObjectProvider<SeqlinkRuntimeBuilderCustomizer> customizers) {
        return SeqlinkRuntimeFactory.create(properties, customizers.orderedStream().toList());
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.Violation;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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
 * or an unsupported link fails startup with a report (see the failure analyzers); so does a
 * {@code seqlink.*} key of the configuration that names no property, unless
 * {@code seqlink.fail-on-unknown-properties=false} (such keys from OS environment variables are only
 * warned about). The runtime's
 * launcher is started later, once the context is ready, by the listener registry.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqlinkProperties.class)
public final class SeqlinkAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SeqlinkAutoConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SeqlinkRuntime seqlinkRuntime(SeqlinkProperties properties, ObjectProvider<SeqlinkRuntimeBuilderCustomizer> customizers,
            Environment environment) {
        UnknownProperties.Found found = UnknownProperties.find(environment);
        List<Violation> unknown = found.configured();
        List<Violation> warned = new ArrayList<>(found.machine());
        if (!properties.failOnUnknownProperties()) {
            warned.addAll(unknown);
            unknown = List.of();
        }
        warned.forEach(v -> log.warn("seqlink: ignoring {}: {} ({})", v.property(), v.problem(), v.fix()));
        return SeqlinkRuntimeFactory.create(properties, unknown, customizers.orderedStream().toList());
    }
}

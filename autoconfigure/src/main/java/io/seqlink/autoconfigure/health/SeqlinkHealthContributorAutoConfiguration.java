package io.seqlink.autoconfigure.health;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@code seqlink} health contributor (a {@code topology} child and one child per channel). Off with
 * {@code management.health.seqlink.enabled=false}; replaced by a bean named
 * {@code seqlinkHealthContributor}.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class)
@ConditionalOnClass({ HealthContributor.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@ConditionalOnBean(SeqlinkRuntime.class)
@ConditionalOnEnabledHealthIndicator("seqlink")
public final class SeqlinkHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "seqlinkHealthContributor")
    SeqlinkHealthContributor seqlinkHealthContributor(SeqlinkRuntime runtime, SeqlinkProperties properties) {
        SeqlinkProperties.Health h = properties.health();
        return new SeqlinkHealthContributor(runtime, new SeqlinkHealthSettings(h.lagThreshold(), h.failOnDegraded()));
    }
}

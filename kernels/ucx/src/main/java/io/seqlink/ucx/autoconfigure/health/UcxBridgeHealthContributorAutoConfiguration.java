package io.seqlink.ucx.autoconfigure.health;

import io.seqlink.ucx.autoconfigure.UcxBridgeAutoConfiguration;
import io.seqlink.ucx.autoconfigure.UcxBridges;
import io.seqlink.ucx.health.UcxBridgeHealthIndicator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@code ucx} health contributor: one child per bridge, named {@code <channel>-send} or
 * {@code <channel>-receive}. Off with {@code management.health.ucx.enabled=false}.
 */
@AutoConfiguration(after = UcxBridgeAutoConfiguration.class)
@ConditionalOnClass({ HealthContributor.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(UcxBridges.class)
@ConditionalOnEnabledHealthIndicator("ucx")
public final class UcxBridgeHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "ucxHealthContributor")
    HealthContributor ucxHealthContributor(List<UcxBridges> lifecycles) {
        Map<String, HealthContributor> children = new LinkedHashMap<>();
        for (UcxBridges l : lifecycles) {
            for (String channel : l.channels()) {
                children.put(channel + "-" + l.role().name().toLowerCase(Locale.ROOT),
                        new UcxBridgeHealthIndicator(() -> l.snapshot(channel)));
            }
        }
        return CompositeHealthContributor.fromMap(children);
    }
}

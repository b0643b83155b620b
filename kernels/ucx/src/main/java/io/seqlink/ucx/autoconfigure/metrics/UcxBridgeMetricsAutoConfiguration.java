package io.seqlink.ucx.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqlink.ucx.autoconfigure.UcxBridgeAutoConfiguration;
import io.seqlink.ucx.autoconfigure.UcxBridges;
import io.seqlink.ucx.metrics.UcxBridgeMetrics;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * bridges' meters ({@link UcxBridgeMetrics}) when Micrometer is there.
 */
@AutoConfiguration(after = UcxBridgeAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(UcxBridges.class)
public final class UcxBridgeMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    UcxBridgeMetrics ucxBridgeMetrics(List<UcxBridges> lifecycles) {
        List<UcxBridgeMetrics.End> ends = new ArrayList<>();
        for (UcxBridges l : lifecycles) {
            for (String channel : l.channels()) {
                ends.add(new UcxBridgeMetrics.End(channel, l.role(), () -> l.snapshot(channel)));
            }
        }
        return new UcxBridgeMetrics(ends);
    }
}

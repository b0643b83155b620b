package io.seqlink.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.spring.metrics.LatencyDistribution;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of
 * seqlink's meters (a {@link SeqlinkMetrics} {@code MeterBinder}) when Micrometer and a
 * {@link MeterRegistry} are there. The latency timer's buckets follow {@code seqlink.metrics.latency.*}.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@ConditionalOnBean({ SeqlinkRuntime.class, MeterRegistry.class })
public final class SeqlinkMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    SeqlinkMetrics seqlinkMetrics(SeqlinkRuntime runtime, SeqlinkProperties properties) {
        SeqlinkProperties.Latency l = properties.metrics().latency();
        return new SeqlinkMetrics(runtime,
                new LatencyDistribution(l.histogram(), l.sloBoundaries(), l.minimumExpected(), l.maximumExpected()));
    }
}

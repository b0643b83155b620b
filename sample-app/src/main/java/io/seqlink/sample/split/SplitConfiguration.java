package io.seqlink.sample.split;

import io.seqlink.channel.PublishChannel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The split pipeline's stages, one per process by {@code sample.split.role} (the {@code split-producer} and
 * {@code split-consumer} profiles set it), and a {@code split} health component with each stage's counts.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "sample.split.role")
@EnableConfigurationProperties(SplitProperties.class)
public class SplitConfiguration {

    @Bean
    @ConditionalOnProperty(name = "sample.split.role", havingValue = "producer")
    SplitProducer splitProducer(ObjectProvider<PublishChannel> channels, SplitProperties properties) {
        PublishChannel ch = channels.orderedStream().filter(c -> c.name().equals(properties.channel())).findFirst()
                .orElseThrow(() -> new IllegalStateException("sample.split.role=producer needs seqlink.channels."
                        + properties.channel() + " with share.enabled=true (the split-producer profile sets it)"));
        return new SplitProducer(ch, properties);
    }

    @Bean
    @ConditionalOnProperty(name = "sample.split.role", havingValue = "consumer")
    SplitInference splitInference(SplitProperties properties) {
        return new SplitInference(properties);
    }

    /** {@code /actuator/health} component {@code split}: the stage's counts; DOWN once a frame failed a check. */
    @Bean
    HealthIndicator splitHealthIndicator(ObjectProvider<SplitProducer> producer, ObjectProvider<SplitInference> inference,
            SplitProperties properties) {
        return () -> {
            SplitInference in = inference.getIfAvailable();
            SplitProducer out = producer.getIfAvailable();
            Health.Builder b = in != null && in.failures() > 0 ? Health.down() : Health.up();
            b.withDetail("role", properties.role()).withDetail("channel", properties.channel());
            if (out != null) {
                b.withDetail("published", out.published());
            }
            if (in != null) {
                b.withDetail("inferred", in.inferred()).withDetail("verified", in.verified()).withDetail("failures", in.failures());
                String f = in.lastFailure();
                if (f != null) {
                    b.withDetail("lastFailure", f);
                }
            }
            return b.build();
        };
    }
}

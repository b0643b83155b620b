package io.seqlink.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;
import io.seqlink.spring.observation.SeqlinkProcessObservationConvention;
import io.seqlink.spring.observation.SeqlinkPublishObservationConvention;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of seqlink's observations
 * when Micrometer's Observation API is on the class path: the channels named under
 * {@code seqlink.observation.channels} with {@code enabled=true} get their {@code PublishChannel} bean and their
 * single-frame {@code @ChannelListener}s observed, with the application's {@link ObservationRegistry} bean (none, or a
 * no-op one: nothing is wrapped). A {@link SeqlinkPublishObservationConvention} or
 * {@link SeqlinkProcessObservationConvention} bean replaces the default convention.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
public final class SeqlinkObservationAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ChannelObservationPostProcessor seqlinkChannelObservationPostProcessor(Environment environment,
            ObjectProvider<ObservationRegistry> registry, ObjectProvider<SeqlinkPublishObservationConvention> publishConvention,
            ObjectProvider<SeqlinkProcessObservationConvention> processConvention) {
        return new ChannelObservationPostProcessor(environment, registry, publishConvention, processConvention);
    }
}

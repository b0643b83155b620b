package io.seqlink.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.spring.observation.ChannelObservations;
import io.seqlink.spring.observation.SeqlinkProcessObservationConvention;
import io.seqlink.spring.observation.SeqlinkPublishObservationConvention;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of seqlink's observations
 * when Micrometer's Observation API is on the class path: the channels named under
 * {@code seqlink.observation.channels} with {@code enabled=true} get their {@code PublishChannel} bean and their
 * single-frame {@code @ChannelListener}s observed, with the application's {@link ObservationRegistry} bean (none, or a
 * no-op one: nothing is wrapped). The {@link ChannelObservations} bean says which, and starts the observation of a
 * device listener's frame for a stage that carries it on. A {@link SeqlinkPublishObservationConvention} or
 * {@link SeqlinkProcessObservationConvention} bean replaces the default convention.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
public final class SeqlinkObservationAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ChannelObservationPostProcessor seqlinkChannelObservationPostProcessor(
            ObjectProvider<ChannelObservations> observations) {
        return new ChannelObservationPostProcessor(observations);
    }

    /**
     * The observed channels as {@code seqlink.observation.channels} names them. A value that does not bind leaves its
     * channel unobserved here (the configuration check reports it and stops the startup); without a channel enabled,
     * no registry is looked up.
     */
    @Bean
    ChannelObservations seqlinkChannelObservations(Environment environment, ObjectProvider<ObservationRegistry> registry,
            ObjectProvider<SeqlinkPublishObservationConvention> publishConvention,
            ObjectProvider<SeqlinkProcessObservationConvention> processConvention) {
        Map<String, ChannelObservations.Settings> settings = new LinkedHashMap<>();
        Binder.get(environment).bind("seqlink.observation", Bindable.of(SeqlinkProperties.Observation.class),
                new IgnoreErrorsBindHandler()).ifBound(bound -> bound.channels().forEach((name, c) -> settings.put(name,
                        new ChannelObservations.Settings(c.enabled(), c.samplingProbability()))));
        boolean any = settings.values().stream().anyMatch(ChannelObservations.Settings::enabled);
        ObservationRegistry r = any ? registry.getIfAvailable(() -> ObservationRegistry.NOOP) : ObservationRegistry.NOOP;
        return new ChannelObservations(r, settings, publishConvention.getIfAvailable(), processConvention.getIfAvailable());
    }
}

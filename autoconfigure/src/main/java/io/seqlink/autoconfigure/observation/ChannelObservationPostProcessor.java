package io.seqlink.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.observation.ChannelObservations;
import io.seqlink.spring.observation.SeqlinkProcessObservationConvention;
import io.seqlink.spring.observation.SeqlinkPublishObservationConvention;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.core.env.Environment;

/**
 * Wraps the {@link PublishChannel} beans of observed channels and gives the {@link ChannelListenerEndpointRegistry}
 * the listener-side wrapper. The settings are read once, at the first bean it sees (the configuration check reports a
 * bad value; a value that does not bind leaves its channel unobserved here). The container calls it on its startup
 * thread.
 */
final class ChannelObservationPostProcessor implements BeanPostProcessor {

    private final Environment environment;
    private final ObjectProvider<ObservationRegistry> registry;
    private final ObjectProvider<SeqlinkPublishObservationConvention> publishConvention;
    private final ObjectProvider<SeqlinkProcessObservationConvention> processConvention;
    private @Nullable ChannelObservations observations;

    ChannelObservationPostProcessor(Environment environment, ObjectProvider<ObservationRegistry> registry,
            ObjectProvider<SeqlinkPublishObservationConvention> publishConvention,
            ObjectProvider<SeqlinkProcessObservationConvention> processConvention) {
        this.environment = environment;
        this.registry = registry;
        this.publishConvention = publishConvention;
        this.processConvention = processConvention;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof PublishChannel channel) {
            return observations().observe(channel);
        }
        if (bean instanceof ChannelListenerEndpointRegistry listeners) {
            ChannelObservations o = observations();
            listeners.setFrameHandlerDecorator(o::observe);
        }
        return bean;
    }

    private ChannelObservations observations() {
        ChannelObservations o = observations;
        if (o == null) {
            Map<String, ChannelObservations.Settings> settings = new LinkedHashMap<>();
            Binder.get(environment).bind("seqlink.observation", Bindable.of(SeqlinkProperties.Observation.class),
                    new IgnoreErrorsBindHandler()).ifBound(bound -> bound.channels().forEach((name, c) -> settings.put(name,
                            new ChannelObservations.Settings(c.enabled(), c.samplingProbability()))));
            boolean any = settings.values().stream().anyMatch(ChannelObservations.Settings::enabled);
            ObservationRegistry r = any ? registry.getIfAvailable(() -> ObservationRegistry.NOOP) : ObservationRegistry.NOOP;
            o = new ChannelObservations(r, settings, publishConvention.getIfAvailable(), processConvention.getIfAvailable());
            observations = o;
        }
        return o;
    }
}

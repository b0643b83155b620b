package io.seqlink.autoconfigure.observation;

import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.observation.ChannelObservations;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the {@link PublishChannel} beans of observed channels and gives the {@link ChannelListenerEndpointRegistry}
 * the listener-side wrapper, both from the {@link ChannelObservations} bean, which it looks up at the first bean it
 * wraps (so the observation registry is made no earlier than before). The container calls it on its startup thread.
 */
final class ChannelObservationPostProcessor implements BeanPostProcessor {

    private final ObjectProvider<ChannelObservations> observations;

    ChannelObservationPostProcessor(ObjectProvider<ChannelObservations> observations) {
        this.observations = observations;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof PublishChannel channel) {
            return observations.getObject().observe(channel);
        }
        if (bean instanceof ChannelListenerEndpointRegistry listeners) {
            ChannelObservations o = observations.getObject();
            listeners.setFrameHandlerDecorator(o::observe);
        }
        return bean;
    }
}

package io.seqlink.autoconfigure.listener;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.autoconfigure.ShareSettings;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.spring.listener.ChannelListenerAnnotationBeanPostProcessor;
import io.seqlink.spring.listener.AttachedChannelRecovery;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.listener.LoggingFrameErrorHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of
 * {@link io.seqlink.spring.listener.ChannelListener @ChannelListener} methods: the annotation
 * post-processor, the default dead-letter hook (a {@link LoggingFrameErrorHandler}, replaced by any
 * {@link FrameErrorHandler} bean), and the {@link ChannelListenerEndpointRegistry} that starts the
 * launcher once the context is ready and drains the channels on shutdown.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@ConditionalOnBean(SeqlinkRuntime.class)
public final class SeqlinkListenerAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static ChannelListenerAnnotationBeanPostProcessor channelListenerAnnotationBeanPostProcessor() {
        return new ChannelListenerAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean(FrameErrorHandler.class)
    LoggingFrameErrorHandler seqlinkFrameErrorHandler() {
        return new LoggingFrameErrorHandler();
    }

    @Bean
    @ConditionalOnMissingBean
    ChannelListenerEndpointRegistry channelListenerEndpointRegistry(SeqlinkRuntime runtime, SeqlinkProperties properties,
            FrameErrorHandler errorHandler) {
        SeqlinkProperties.Retry r = properties.listener().retry();
        RetryPolicy retry = new RetryPolicy(r.maxAttempts(), r.initialBackoff(), r.multiplier(), r.maxBackoff());
        return new ChannelListenerEndpointRegistry(runtime, retry, errorHandler, properties.shutdown().drainTimeout(),
                properties.listener().autoStartup());
    }

    /** Attaches again to the channels of {@code seqlink.attach} whose attachment failed (reattach-interval above 0). */
    @Bean
    @ConditionalOnMissingBean
    AttachedChannelRecovery attachedChannelRecovery(SeqlinkRuntime runtime, SeqlinkProperties properties,
            ChannelListenerEndpointRegistry registry) {
        Map<String, AttachedChannelRecovery.Settings> channels = new LinkedHashMap<>();
        properties.attach().forEach((name, a) -> {
            if (!a.reattachInterval().isZero()) {
                channels.put(name, new AttachedChannelRecovery.Settings(() -> ShareSettings.attach(name, a), a.reattachInterval(),
                        a.connectTimeout()));
            }
        });
        return new AttachedChannelRecovery(runtime, registry, channels);
    }
}

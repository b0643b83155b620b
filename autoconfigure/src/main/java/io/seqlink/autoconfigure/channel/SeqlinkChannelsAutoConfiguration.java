package io.seqlink.autoconfigure.channel;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of one
 * {@link io.seqlink.channel.PublishChannel} bean per channel configured under
 * {@code seqlink.channels}, qualified and (unless the name is taken) named after the channel:
 * inject one with {@code @Qualifier("frames") PublishChannel frames}.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
public final class SeqlinkChannelsAutoConfiguration {

    @Bean
    static ChannelBeanRegistrar seqlinkChannelBeanRegistrar(Environment environment) {
        return new ChannelBeanRegistrar(environment);
    }
}

package io.seqlink.autoconfigure.channel;

import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Import;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of one
 * {@link io.seqlink.channel.PublishChannel} bean per channel configured under
 * {@code seqlink.channels}, named after the channel. A bean definition of the same name that the
 * application declares wins.
 */
@AutoConfiguration(after = SeqlinkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "seqlink.enabled", matchIfMissing = true)
@Import(ChannelBeanDefinitionRegistrar.class)
public final class SeqlinkChannelsAutoConfiguration {
}

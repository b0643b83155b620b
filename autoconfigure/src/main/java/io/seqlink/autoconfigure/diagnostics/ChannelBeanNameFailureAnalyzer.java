package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.autoconfigure.channel.ChannelBeans;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionOverrideException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports a bean registered, after the channel beans, under the name of a seqlink channel's bean (a
 * late registry post-processor, say): overriding is off, so startup stops. Ordered before Boot's
 * generic report, which would not say that the other bean is a channel.
 */
class ChannelBeanNameFailureAnalyzer extends AbstractFailureAnalyzer<BeanDefinitionOverrideException> implements Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BeanDefinitionOverrideException cause) {
        Object channel = cause.getExistingDefinition().getAttribute(ChannelBeans.CHANNEL_ATTRIBUTE);
        if (channel == null) {
            return null;
        }
        BeanDefinition other = cause.getBeanDefinition();
        String description = "The bean '" + cause.getBeanName() + "'" + origin(other) + " could not be registered: seqlink "
                + "channel '" + channel + "' (seqlink.channels." + channel + ") already has that bean name, and bean "
                + "definition overriding is disabled.";
        String action = "Give your bean another name (e.g. @Component(\"" + cause.getBeanName() + "Service\")), or rename the "
                + "channel. Register your bean before the seqlink auto-configuration runs (a @Component or @Bean does) "
                + "and the channel moves aside to bean '" + ChannelBeans.fallbackBeanName(channel.toString())
                + "', still injectable as "
                + "@Qualifier(\"" + channel + "\").";
        return new FailureAnalysis(description, action, cause);
    }

    private static String origin(BeanDefinition definition) {
        String where = definition.getResourceDescription();
        return where != null ? ", defined in " + where + "," : definition.getBeanClassName() != null
                ? " (" + definition.getBeanClassName() + ")" : "";
    }
}

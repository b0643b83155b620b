package io.seqlink.autoconfigure.channel;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.channel.PublishChannel;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.RuntimeBeanReference;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers a {@link PublishChannel} bean definition for every name under {@code seqlink.channels}.
 * Only the names are read here; the values are bound and checked by the runtime's configuration, so
 * a bad value fails startup there, with every problem listed.
 */
class ChannelBeanDefinitionRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

    private static final Logger log = LoggerFactory.getLogger(ChannelBeanDefinitionRegistrar.class);

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Map<String, SeqlinkProperties.Channel> channels = Binder.get(this.environment)
                .bind("seqlink.channels", Bindable.mapOf(String.class, SeqlinkProperties.Channel.class),
                        new IgnoreErrorsBindHandler())
                .orElse(Map.of());
        for (String name : channels.keySet()) {
            if (registry.containsBeanDefinition(name)) {
                log.debug("seqlink: a bean named '{}' exists; no PublishChannel bean is registered under that name", name);
                continue;
            }
            RootBeanDefinition definition = new RootBeanDefinition(ChannelBeans.class);
            definition.setTargetType(PublishChannel.class);
            definition.setFactoryMethodName("channel");
            definition.getConstructorArgumentValues().addIndexedArgumentValue(0, new RuntimeBeanReference(SeqlinkRuntime.class));
            definition.getConstructorArgumentValues().addIndexedArgumentValue(1, name);
            // the runtime owns its channels and closes them after draining; the bean must not close one itself
            definition.setDestroyMethodName("");
            definition.setDescription("seqlink channel '" + name + "' (seqlink.channels." + name + ")");
            registry.registerBeanDefinition(name, definition);
        }
    }
}

package io.seqlink.autoconfigure.channel;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.PublishChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.RuntimeBeanReference;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Registers a {@link PublishChannel} bean definition for every name under {@code seqlink.channels},
 * each with the channel's name as its {@link Qualifier @Qualifier}. The bean is named after the
 * channel; when the application already has a bean of that name (say a {@code @Component class
 * Snapshots} beside channel {@code snapshots}), the channel's bean is named
 * {@code seqlink.channels.<name>} instead and stays injectable as {@code @Qualifier("snapshots")}.
 *
 * <p>Runs as a registry post-processor of the lowest precedence, after the configuration classes
 * (the application's and every auto-configuration) have registered theirs, so a later bean of the
 * same name is seen whichever configuration defines it. Only the names are read here; the values are
 * bound and checked by the runtime's configuration, so a bad value fails startup there, with every
 * problem listed. Called once by the container, on its startup thread.
 */
final class ChannelBeanRegistrar implements BeanDefinitionRegistryPostProcessor, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ChannelBeanRegistrar.class);

    private final Environment environment;

    ChannelBeanRegistrar(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        for (String name : ChannelBeans.configuredNames(environment)) {
            String beanName = name;
            if (registry.isBeanNameInUse(name)) {
                beanName = ChannelBeans.fallbackBeanName(name);
                log.info("seqlink: the bean name '{}' is taken by another bean ({}), so channel '{}' is the bean '{}'; "
                        + "inject it with @Qualifier(\"{}\")", name, describe(registry, name), name, beanName, name);
            }
            registry.registerBeanDefinition(beanName, definition(name));
        }
    }

    private static RootBeanDefinition definition(String name) {
        RootBeanDefinition definition = new RootBeanDefinition(ChannelBeans.class);
        definition.setTargetType(PublishChannel.class);
        definition.setFactoryMethodName("channel");
        definition.getConstructorArgumentValues().addIndexedArgumentValue(0, new RuntimeBeanReference(SeqlinkRuntime.class));
        definition.getConstructorArgumentValues().addIndexedArgumentValue(1, name);
        definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
        definition.setAttribute(ChannelBeans.CHANNEL_ATTRIBUTE, name);
        // the runtime owns its channels and closes them after draining; the bean must not close one itself
        definition.setDestroyMethodName("");
        definition.setDescription("seqlink channel '" + name + "' (seqlink.channels." + name + ")");
        return definition;
    }

    private static String describe(BeanDefinitionRegistry registry, String name) {
        if (!registry.containsBeanDefinition(name)) {
            return "an alias";
        }
        BeanDefinition existing = registry.getBeanDefinition(name);
        String where = existing.getResourceDescription();
        if (existing.getFactoryMethodName() != null) {
            return "@Bean " + existing.getFactoryMethodName() + "() of " + (where != null ? where : existing.getFactoryBeanName());
        }
        return existing.getBeanClassName() + (where == null ? "" : " from " + where);
    }
}

package io.seqlink.test.context;

import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.test.SeqlinkFaults;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Reads {@link EmulatedSeqlink} from a test class and customizes its context: the emulated backend and
 * its simulated machine as test properties, and the {@link SeqlinkFaults} bean. Registered in
 * {@code META-INF/spring.factories}; the test framework calls it while it builds a context.
 */
public final class EmulatedSeqlinkContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY).get(EmulatedSeqlink.class)
                .synthesize(a -> a.isPresent()).map(a -> new Customizer(properties(a))).orElse(null);
    }

    /** The {@code seqlink.*} properties the annotation stands for. */
    static List<String> properties(EmulatedSeqlink a) {
        List<String> p = new ArrayList<>();
        p.add("seqlink.backend=emulated");
        p.add("seqlink.verify.enabled=" + a.verify());
        if (a.devices() < 0 || a.devices() > EmulatedTopology.MAX_DEVICES) {
            throw new IllegalArgumentException("@EmulatedSeqlink(devices = " + a.devices() + "): give 1 to "
                    + EmulatedTopology.MAX_DEVICES + " devices, or 0 to keep seqlink.emulated.device-count as configured");
        }
        if (a.devices() > 0) {
            p.add("seqlink.emulated.device-count=" + a.devices());
        }
        entries("links", a.links(), p);
        entries("latency", a.latency(), p);
        return List.copyOf(p);
    }

    private static void entries(String map, String[] entries, List<String> p) {
        for (String e : entries) {
            int eq = e.indexOf('=');
            if (eq <= 0 || eq == e.length() - 1) {
                throw new IllegalArgumentException("@EmulatedSeqlink(" + map + " = \"" + e + "\"): write \"pair=value\", "
                        + "e.g. \"0-1=" + ("links".equals(map) ? "pcie-peer" : "2us") + "\"");
            }
            // bracketed: the pair is a map key and keeps its dashes
            p.add("seqlink.emulated." + map + "[" + e.substring(0, eq).strip() + "]=" + e.substring(eq + 1).strip());
        }
    }

    /** Equal for equal properties, so that the test framework caches and shares the context. */
    private record Customizer(List<String> properties) implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            TestPropertyValues.of(properties).applyTo(context);
            if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry
                    && !registry.containsBeanDefinition(SeqlinkFaults.BEAN_NAME)) {
                RootBeanDefinition faults = new RootBeanDefinition(SeqlinkFaults.class);
                faults.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
                registry.registerBeanDefinition(SeqlinkFaults.BEAN_NAME, faults);
            }
        }
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.channel.Violation;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Checks the whole {@code seqlink.*} configuration before any bean is created: keys that name no
 * property ({@code seqlink.chanels}, {@code slot-sise}: {@link UnknownProperties}), channel names that
 * differ only in case, and every value ({@link SeqlinkPropertiesValidator}); every problem at once, as a
 * {@link SeqlinkConfigurationException} its failure analyzer reports. Done here rather than when the
 * runtime bean is made because an application's bean that injects a channel is usually created first:
 * with a misspelt group or channel name it would fail on a missing bean before seqlink got to say why.
 * Unknown keys from OS environment variables (and all of them under
 * {@code seqlink.fail-on-unknown-properties=false}) are logged as warnings instead. A value that does not
 * convert ({@code delivery: lates}) fails binding here, reported by Spring Boot's own analyzer, naming the
 * property and the valid values. Called once by the container, on its startup thread.
 */
final class SeqlinkConfigurationCheck implements BeanFactoryPostProcessor, Ordered {

    private static final Logger log = LoggerFactory.getLogger(SeqlinkConfigurationCheck.class);

    private final Environment environment;

    SeqlinkConfigurationCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        UnknownProperties.Found found = UnknownProperties.find(environment);
        SeqlinkProperties properties = Binder.get(environment).bindOrCreate("seqlink", Bindable.of(SeqlinkProperties.class));
        List<Violation> problems = new ArrayList<>();
        List<Violation> warned = new ArrayList<>(found.machine());
        if (properties.failOnUnknownProperties()) {
            problems.addAll(found.configured());
        } else {
            warned.addAll(found.configured());
        }
        warned.forEach(v -> log.warn("seqlink: ignoring {}: {} ({})", v.property(), v.problem(), v.fix()));
        problems.addAll(SeqlinkPropertiesValidator.validate(properties));
        if (!problems.isEmpty()) {
            throw new SeqlinkConfigurationException(problems);
        }
    }
}

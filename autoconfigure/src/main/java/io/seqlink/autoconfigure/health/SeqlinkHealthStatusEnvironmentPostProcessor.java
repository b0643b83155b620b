package io.seqlink.autoconfigure.health;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Puts {@code DEGRADED} into Boot's health status order when the application has not set one:
 * Boot's aggregator ignores statuses missing from {@code management.endpoint.health.status.order},
 * so a degraded seqlink channel would otherwise not show in the aggregate. The default is added as
 * the last property source, so any setting of the application wins. Nothing happens when
 * {@code seqlink.enabled=false}.
 */
public class SeqlinkHealthStatusEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** The name of the property source this adds. */
    public static final String PROPERTY_SOURCE_NAME = "seqlinkHealthStatusOrder";

    static final String ORDER_PROPERTY = "management.endpoint.health.status.order";

    /** Boot's default order with {@code degraded} between {@code out-of-service} and {@code up}. */
    static final String DEFAULT_STATUS_ORDER = "down,out-of-service,degraded,up,unknown";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getProperty("seqlink.enabled", Boolean.class, true) || environment.containsProperty(ORDER_PROPERTY)
                || environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
            return;
        }
        environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
                Map.of(ORDER_PROPERTY, DEFAULT_STATUS_ORDER)));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after the config data is loaded, so the application's own setting is seen
    }
}

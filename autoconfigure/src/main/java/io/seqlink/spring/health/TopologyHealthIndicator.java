package io.seqlink.spring.health;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.spring.support.BackendReasons;
import io.seqlink.topology.LinkVerdict;
import io.seqlink.topology.TopologyReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The verified topology: backend and, in a few words, why (the whole reason is in the {@code seqlink}
 * endpoint), devices, the verdict of every link. Reads the cached report only;
 * never touches the driver (a health check runs on an HTTP thread, with no timeout).
 */
public class TopologyHealthIndicator implements HealthIndicator {

    private final SeqlinkRuntime runtime;
    private final SeqlinkHealthSettings settings;

    public TopologyHealthIndicator(SeqlinkRuntime runtime, SeqlinkHealthSettings settings) {
        this.runtime = runtime;
        this.settings = settings;
    }

    @Override
    public Health health() {
        TopologyReport report = runtime.topology();
        Set<String> degraded = runtime.degradedLinks();
        Status status = runtime.closed() ? Status.OUT_OF_SERVICE
                : degraded.isEmpty() ? Status.UP : settings.failOnDegraded() ? Status.DOWN : SeqlinkHealthStatus.DEGRADED;
        Health.Builder b = Health.status(status)
                .withDetail("backend", runtime.backendKind().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("backendReason", BackendReasons.summary(runtime))
                .withDetail("devices", runtime.devices())
                .withDetail("requiredLinkClass", runtime.policy().required())
                .withDetail("onUnsupported", runtime.policy().onUnsupported());
        if (report != null) {
            Map<String, String> links = new LinkedHashMap<>();
            for (LinkVerdict v : report.links()) {
                links.put(v.producer() + "->" + v.consumer(), v.verdict().name());
            }
            b.withDetail("links", links).withDetail("worstLink", report.worst()).withDetail("verifiedAt",
                    String.valueOf(report.verifiedAt()));
        }
        if (!degraded.isEmpty()) {
            b.withDetail("degradedLinks", List.copyOf(degraded));
        }
        return b.build();
    }
}

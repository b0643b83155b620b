package io.seqlink.spring.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.endpoint.SeqlinkEndpointAutoConfiguration;
import io.seqlink.autoconfigure.health.SeqlinkHealthContributorAutoConfiguration;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.Backends;
import io.seqlink.spring.endpoint.SeqlinkEndpoint;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Health and the endpoint say in a few words why the runtime is emulated, not with the loader error's
 * text; the whole cause stays in the endpoint's {@code backendDetail}.
 */
class BackendReasonsTests {

    static final String FALLBACK = "no usable CUDA driver: the CUDA driver library could not be loaded (UnsatisfiedLinkError: "
            + "libcuda.so.1: cannot open shared object file: No such file or directory): no libcuda.so.1 on this host, or "
            + "JCuda's natives (org.jcuda:jcuda-natives:linux-x86_64) are missing";

    @Test
    void aReasonCarryingAnErrorIsCutToItsFirstClause() {
        assertThat(BackendReasons.summary(FALLBACK)).isEqualTo("no usable CUDA driver");
        assertThat(BackendReasons.summary("cuda backend failed to open: java.lang.IllegalStateException: boom"))
                .isEqualTo("cuda backend failed to open");
    }

    @Test
    void aShortCalmReasonIsShownWhole() {
        assertThat(BackendReasons.summary("the emulated backend was chosen")).isEqualTo("the emulated backend was chosen");
        assertThat(BackendReasons.summary("CUDA driver 12.6, 2 device(s): 0=NVIDIA H200, 1=NVIDIA H200"))
                .isEqualTo("CUDA driver 12.6, 2 device(s): 0=NVIDIA H200, 1=NVIDIA H200");
        assertThat(BackendReasons.summary("no CUDA driver (libcuda.so.1 not found)"))
                .isEqualTo("no CUDA driver (libcuda.so.1 not found)");
    }

    @Test
    void healthAndTheEndpointShowTheShortReasonAndTheEndpointTheWholeCause() {
        Assumptions.assumeTrue(Backends.cudaProvider() == null || !Backends.cudaProvider().detect().usable(),
                "a CUDA driver answers here");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class,
                        SeqlinkHealthContributorAutoConfiguration.class, SeqlinkEndpointAutoConfiguration.class))
                .withPropertyValues("seqlink.verify.enabled=false", "management.endpoints.web.exposure.include=seqlink",
                        "management.endpoints.jmx.exposure.include=seqlink")
                .run(context -> {
                    SeqlinkRuntime runtime = context.getBean(SeqlinkRuntime.class);
                    assertThat(runtime.backendKind()).isEqualTo(BackendKind.EMULATED);
                    String shown = BackendReasons.summary(runtime);
                    assertThat(shown).startsWith("no usable CUDA driver").hasSizeLessThanOrEqualTo(100)
                            .doesNotContain("Error", "Exception");
                    HealthIndicator topology = (HealthIndicator) context.getBean(SeqlinkHealthContributor.class)
                            .getContributor(SeqlinkHealthContributor.TOPOLOGY);
                    assertThat(topology.health().getDetails()).containsEntry("backendReason", shown);
                    SeqlinkEndpoint.SeqlinkDescriptor d = context.getBean(SeqlinkEndpoint.class).seqlink();
                    assertThat(d.backendReason()).isEqualTo(shown);
                    assertThat(d.backendDetail()).isEqualTo(runtime.backendChoice().detail()).isNotEqualTo(shown);
                });
    }
}

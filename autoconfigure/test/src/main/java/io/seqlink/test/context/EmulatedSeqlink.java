package io.seqlink.test.context;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the seqlink of a Spring test context ({@code @SpringBootTest}, {@code @ContextConfiguration})
 * on the emulated backend, GPU or not, on the simulated machine described here, and adds a
 * {@link io.seqlink.test.SeqlinkFaults} bean to inject device faults from the test. Attributes left
 * at their defaults keep the application's own {@code seqlink.emulated.*} settings. The settings are
 * test properties of the highest precedence, so a context with the same annotation values is cached
 * and shared like any other.
 *
 * <pre>{@code
 * @SpringBootTest
 * @EmulatedSeqlink(devices = 3, links = {"0-1=nvlink", "0-2=pcie-peer"})
 * class PipelineTests { ... }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmulatedSeqlink {

    /** Simulated devices, 1 to 64 ({@code seqlink.emulated.device-count}); 0 keeps the configured count. */
    int devices() default 0;

    /**
     * Links between simulated devices, as {@code seqlink.emulated.links} entries {@code "pair=mode"}:
     * {@code "0-1=nvlink"}, {@code "0-to-2=pcie-peer"}; modes {@code nvlink}, {@code nvlink-proxied},
     * {@code pcie-peer}, {@code host-only}. Pairs not listed keep the configured mode ({@code nvlink}
     * unless configured).
     */
    String[] links() default {};

    /** Latency injected per device pair, as {@code seqlink.emulated.latency} entries {@code "0-1=2us"}. */
    String[] latency() default {};

    /**
     * Whether the startup verifier probes the links ({@code seqlink.verify.enabled}). Off by default:
     * tests start faster, and the verdicts follow the links' modes.
     */
    boolean verify() default false;
}

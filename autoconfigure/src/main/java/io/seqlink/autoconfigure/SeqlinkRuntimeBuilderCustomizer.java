package io.seqlink.autoconfigure;

import io.seqlink.SeqlinkRuntime;

/**
 * Customizes the {@link SeqlinkRuntime.Builder} the auto-configuration fills from
 * {@link SeqlinkProperties}, after the properties are applied and before the runtime opens. Beans
 * of this type are applied in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface SeqlinkRuntimeBuilderCustomizer {

    void customize(SeqlinkRuntime.Builder builder);
}

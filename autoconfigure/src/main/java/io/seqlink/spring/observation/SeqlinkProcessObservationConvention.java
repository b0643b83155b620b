package io.seqlink.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** A convention for {@code seqlink.process} observations; a bean of this type replaces the default. */
public interface SeqlinkProcessObservationConvention extends ObservationConvention<SeqlinkProcessContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof SeqlinkProcessContext;
    }

    @Override
    default String getName() {
        return "seqlink.process";
    }
}

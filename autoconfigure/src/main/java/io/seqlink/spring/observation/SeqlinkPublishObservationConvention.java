package io.seqlink.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** A convention for {@code seqlink.publish} observations; a bean of this type replaces the default. */
public interface SeqlinkPublishObservationConvention extends ObservationConvention<SeqlinkPublishContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof SeqlinkPublishContext;
    }

    @Override
    default String getName() {
        return "seqlink.publish";
    }
}

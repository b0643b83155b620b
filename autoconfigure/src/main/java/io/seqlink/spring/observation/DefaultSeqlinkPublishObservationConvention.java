package io.seqlink.spring.observation;

import io.micrometer.common.KeyValues;

/** The default {@code seqlink.publish} convention: keys channel and messaging system. Stateless; any thread. */
public class DefaultSeqlinkPublishObservationConvention implements SeqlinkPublishObservationConvention {

    /** The shared instance. */
    public static final DefaultSeqlinkPublishObservationConvention INSTANCE = new DefaultSeqlinkPublishObservationConvention();

    @Override
    public KeyValues getLowCardinalityKeyValues(SeqlinkPublishContext context) {
        return KeyValues.of(SeqlinkObservation.PublishKeys.CHANNEL.withValue(context.channel()),
                SeqlinkObservation.PublishKeys.MESSAGING_SYSTEM.withValue("seqlink"));
    }

    @Override
    public String getContextualName(SeqlinkPublishContext context) {
        return context.channel() + " publish";
    }
}

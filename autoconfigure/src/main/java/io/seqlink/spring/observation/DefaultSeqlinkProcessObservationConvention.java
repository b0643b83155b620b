package io.seqlink.spring.observation;

import io.micrometer.common.KeyValues;

/** The default {@code seqlink.process} convention: keys channel, consumer device and messaging system. Stateless; any thread. */
public class DefaultSeqlinkProcessObservationConvention implements SeqlinkProcessObservationConvention {

    /** The shared instance. */
    public static final DefaultSeqlinkProcessObservationConvention INSTANCE = new DefaultSeqlinkProcessObservationConvention();

    @Override
    public KeyValues getLowCardinalityKeyValues(SeqlinkProcessContext context) {
        return KeyValues.of(SeqlinkObservation.ProcessKeys.CHANNEL.withValue(context.channel()),
                SeqlinkObservation.ProcessKeys.CONSUMER_DEVICE.withValue(Integer.toString(context.consumerDevice())),
                SeqlinkObservation.ProcessKeys.MESSAGING_SYSTEM.withValue("seqlink"));
    }

    @Override
    public String getContextualName(SeqlinkProcessContext context) {
        return context.channel() + " process";
    }
}

package io.seqlink.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/** The observations seqlink records, with their low-cardinality keys. Constants; any thread. */
public enum SeqlinkObservation implements ObservationDocumentation {

    /** Around a sampled frame's publish on a channel ({@code offer}, or a claim's {@code commit}). */
    PUBLISH {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultSeqlinkPublishObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return PublishKeys.values();
        }

        @Override
        public String getPrefix() {
            return "seqlink";
        }
    },

    /** Around a {@code @ChannelListener} call for a frame that carries a trace context. */
    PROCESS {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultSeqlinkProcessObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return ProcessKeys.values();
        }

        @Override
        public String getPrefix() {
            return "seqlink";
        }
    };

    /** The publish observation's low-cardinality keys. */
    public enum PublishKeys implements KeyName {
        /** The channel's name. */
        CHANNEL {
            @Override
            public String asString() {
                return "seqlink.channel";
            }
        },
        /** Always {@code seqlink}. */
        MESSAGING_SYSTEM {
            @Override
            public String asString() {
                return "messaging.system";
            }
        }
    }

    /** The process observation's low-cardinality keys. */
    public enum ProcessKeys implements KeyName {
        /** The channel's name. */
        CHANNEL {
            @Override
            public String asString() {
                return "seqlink.channel";
            }
        },
        /** The consumer device whose listener ran. */
        CONSUMER_DEVICE {
            @Override
            public String asString() {
                return "seqlink.consumer.device";
            }
        },
        /** Always {@code seqlink}. */
        MESSAGING_SYSTEM {
            @Override
            public String asString() {
                return "messaging.system";
            }
        }
    }
}

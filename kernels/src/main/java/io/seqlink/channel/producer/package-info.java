/**
 * The producer side of a channel: {@link io.seqlink.channel.producer.Producer} (the producer calls any number of
 * threads make at once), its sequencer (who gets which sequence, and the one publisher at a time that publishes
 * everyone's committed prefix), the sequences given back as padding, and
 * {@link io.seqlink.channel.producer.ProducerTransport} (the producer's memory and its bound publish step). The
 * channel that owns them reaches them through those two public types and
 * {@link io.seqlink.channel.producer.ProducerAdmission}, which it implements; nothing else here is public.
 */
@NullMarked
package io.seqlink.channel.producer;

import org.jspecify.annotations.NullMarked;

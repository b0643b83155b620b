/**
 * One consumer of a channel: {@link io.seqlink.channel.consumer.DefaultConsumerPort} and what it is made of. A port
 * holds one {@code Subscription} at a time, whose {@code ListenerDelivery} (a sealed type: host frames, host
 * batches, and the device listeners' three endings) says how a round's frames reach that kind of listener: its
 * steps on the consumer's stream, whether it may be armed ahead of its frame, its retry loop and how it
 * acknowledges. The port's {@code Rounds} run one round at a time for its poller; {@code Attempts} is what the
 * port does about a listener that fails (retries, dead letters, holding); {@code ConsumerSteps} is the memory and
 * the bound device steps, reached through a {@code ConsumerLink} per transport. The channel that owns the port
 * talks to it through the public {@link io.seqlink.channel.consumer.DefaultConsumerPort} methods and the
 * launcher through {@link io.seqlink.channel.consumer.PortDriver}; nothing else here is public.
 */
@NullMarked
package io.seqlink.channel.consumer;

import org.jspecify.annotations.NullMarked;

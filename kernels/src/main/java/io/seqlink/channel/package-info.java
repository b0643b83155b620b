/**
 * Channels: {@link io.seqlink.channel.PublishChannel} on the producer side, one
 * {@link io.seqlink.channel.ConsumerPort} per consumer device, their specs, states and snapshots.
 */
@NullMarked
package io.seqlink.channel;

import org.jspecify.annotations.NullMarked;

/**
 * A channel put together, opened, drained and closed: the channel itself (the producer and its consumer ports
 * wired to one life), its states and memory guards, and the drain that accounts for every frame it accepted.
 * {@link io.seqlink.channel.lifecycle.Channels} opens channels for the runtime and gives the launcher its hold on
 * their ports; {@link io.seqlink.channel.lifecycle.ChannelEvents} is what a channel tells its owner. Nothing else here
 * is public: users reach a channel through {@link io.seqlink.channel.PublishChannel}.
 */
@NullMarked
package io.seqlink.channel.lifecycle;

import org.jspecify.annotations.NullMarked;

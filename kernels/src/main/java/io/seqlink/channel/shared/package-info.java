/**
 * Channels between processes of one host: a producer process exports a channel ({@link io.seqlink.channel.shared.ChannelExport}:
 * a shared-memory region that holds its ring, or a replica its publish step pushes into, a Unix domain socket consumer processes attach through, seats
 * whose acknowledgements gate it, heartbeats), and a consumer process attaches to it
 * ({@link io.seqlink.channel.shared.AttachedChannels}: the handshake, the mapping, an ordinary consumer port over the
 * shared replica, and the watch on the producer). {@code docs/cross-process.md} describes the protocol.
 */
@NullMarked
package io.seqlink.channel.shared;

import org.jspecify.annotations.NullMarked;

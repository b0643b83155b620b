/**
 * Channels across hosts on UCX: a {@link io.seqlink.ucx.SendingBridge} on the producer host takes a
 * local channel's frames and carries them to a {@link io.seqlink.ucx.ReceivingBridge} on the consumer
 * host, which publishes them into the local channel of the same name. Spring-free.
 */
@NullMarked
package io.seqlink.ucx;

import org.jspecify.annotations.NullMarked;

/**
 * The channel API users touch: {@link io.seqlink.channel.PublishChannel} on the producer side, one
 * {@link io.seqlink.channel.ConsumerPort} per consumer device, the listeners they take
 * ({@link io.seqlink.channel.FrameHandler}, {@link io.seqlink.channel.FrameBatchHandler},
 * {@link io.seqlink.channel.DeviceFrameHandler}), their specs, states, statuses and snapshots. Only interfaces,
 * values and exceptions: the implementation lives in the sub-packages ({@code producer}, {@code consumer},
 * {@code lifecycle}, {@code memory}), which this package never names.
 */
@NullMarked
package io.seqlink.channel;

import org.jspecify.annotations.NullMarked;

package io.seqlink.spring.support;

import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.PublishChannel;
import java.util.Map;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Snapshots of channels for health, the endpoint and metrics, safe after a channel closed: a closed
 * channel has freed its memory (mirrors included), so reading it again is not allowed. The last
 * snapshot taken while it was open is returned instead (its final positions), and {@code null} if
 * there never was one.
 */
public final class ChannelSnapshots {

    private static final Map<PublishChannel, ChannelSnapshot> LAST = new WeakHashMap<>();

    private ChannelSnapshots() {
    }

    /** The channel's snapshot now, or its last one once it is closed ({@code null} if none was taken). */
    public static @Nullable ChannelSnapshot of(PublishChannel channel) {
        if (channel.state() != ChannelState.CLOSED) {
            try {
                ChannelSnapshot s = channel.snapshot();
                synchronized (LAST) {
                    LAST.put(channel, s);
                }
                return s;
            } catch (IllegalStateException closedMeanwhile) {
                // closed between the state check and the read: fall through to the last snapshot
            }
        }
        synchronized (LAST) {
            return LAST.get(channel);
        }
    }

    /** The snapshot of consumer {@code device} of {@code channel}, as {@link #of(PublishChannel)}. */
    public static @Nullable ConsumerSnapshot consumer(PublishChannel channel, int device) {
        ChannelSnapshot s = of(channel);
        if (s == null) {
            return null;
        }
        for (ConsumerSnapshot c : s.consumers()) {
            if (c.device() == device) {
                return c;
            }
        }
        return null;
    }
}

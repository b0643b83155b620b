package io.seqlink.channel;

import io.seqlink.backend.Backend;
import io.seqlink.topology.Transport;
import java.util.List;
import java.util.Map;

/**
 * Opens channels on a backend once their transports are decided. Most code opens channels through
 * {@link io.seqlink.SeqlinkRuntime}, which verifies the links and picks the transports first.
 */
public final class Channels {

    private Channels() {
    }

    /**
     * Opens a channel. {@code spec} must be valid ({@link ChannelSpec#checked()}) and
     * {@code transports} must hold a concrete transport for every consumer device.
     */
    public static PublishChannel open(Backend backend, ChannelSpec spec, Map<Integer, Transport> transports, ChannelEvents events) {
        spec.checked();
        for (int c : spec.consumers()) {
            Transport t = transports.get(c);
            if (t == null || t == Transport.AUTO) {
                throw new IllegalArgumentException("transports: no concrete transport for consumer " + c + " of channel '"
                        + spec.name() + "'; the runtime picks one from the topology report");
            }
        }
        return new DefaultPublishChannel(backend, spec, transports, events);
    }

    /** The consumer ports of a channel this package opened. */
    public static List<ConsumerPort> ports(PublishChannel channel) {
        if (channel instanceof DefaultPublishChannel c) {
            return c.ports();
        }
        throw new IllegalArgumentException("not a seqlink channel: " + channel);
    }

    /** Fails a channel this package opened, e.g. because its device failed elsewhere. */
    public static void fail(PublishChannel channel, Throwable cause, int device) {
        if (channel instanceof DefaultPublishChannel c) {
            c.fail(cause, device);
        }
    }

    /** Marks the consumer on {@code device} dead because its device failed elsewhere. */
    public static void consumerDeviceLost(PublishChannel channel, int device, Throwable cause) {
        for (ConsumerPort p : ports(channel)) {
            if (p.device() == device) {
                p.deviceLost(cause);
            }
        }
    }
}

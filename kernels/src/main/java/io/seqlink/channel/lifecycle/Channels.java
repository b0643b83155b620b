package io.seqlink.channel.lifecycle;

import io.seqlink.backend.Backend;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.channel.consumer.ListenerThreads;
import io.seqlink.channel.consumer.PortDriver;
import io.seqlink.topology.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Opens channels on a backend once their transports are decided, and gives the runtime and the
 * launcher their hold on them. Most code opens channels through {@link io.seqlink.SeqlinkRuntime},
 * which verifies the links and picks the transports first. Every method is safe from any thread.
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
    public static List<DefaultConsumerPort> ports(PublishChannel channel) {
        return own(channel).ports();
    }

    /** The launcher's hold on a port: it becomes the port's only poller once engaged. */
    public static PortDriver driver(ConsumerPort port) {
        if (port instanceof DefaultConsumerPort p) {
            return p.driver();
        }
        throw new IllegalArgumentException("not a seqlink consumer port: " + port);
    }

    /**
     * A thread for the launcher's device loops: seqlink runs listeners on it, so a listener publishing to
     * another channel while a runtime drains all its channels together is still admitted.
     */
    public static Thread listenerThread(Runnable task, String name) {
        return ListenerThreads.create(task, name);
    }

    /** Fails a channel this package opened, e.g. because its device failed elsewhere. */
    public static void fail(PublishChannel channel, Throwable cause, int device) {
        if (channel instanceof DefaultPublishChannel c) {
            c.life().fail(cause, device);
        }
    }

    /** Marks the consumer on {@code device} dead because its device failed elsewhere. */
    public static void consumerDeviceLost(PublishChannel channel, int device, Throwable cause) {
        for (DefaultConsumerPort p : ports(channel)) {
            if (p.device() == device) {
                p.deviceLost(cause);
            }
        }
    }

    /**
     * Drains and closes {@code channels} together within {@code timeout}: outside producers are refused
     * at once, while seqlink's listener threads may still publish until every channel is quiet, so
     * channels chained by listeners lose nothing whatever their order; then all close. A report per
     * channel, in order. Returns early, with the interrupt flag kept, when the calling thread is interrupted.
     */
    public static List<DrainReport> drainAndCloseAll(List<PublishChannel> channels, Duration timeout) {
        List<DefaultPublishChannel> own = new ArrayList<>(channels.size());
        for (PublishChannel ch : channels) {
            own.add(own(ch));
        }
        return ChannelDrain.drainAll(own, timeout);
    }

    private static DefaultPublishChannel own(PublishChannel channel) {
        if (channel instanceof DefaultPublishChannel c) {
            return c;
        }
        throw new IllegalArgumentException("not a seqlink channel: " + channel);
    }
}

package io.seqlink;

import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.lifecycle.ChannelEvents;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.launcher.Launcher;

/**
 * What the runtime does when one of its channels reports: a sticky device error fails every channel on
 * that device (as producer) or loses it as a consumer; a closed channel leaves the launcher and the
 * table, giving its name back; a released channel may let the backend close. Runs on whichever thread
 * the channel reports from.
 */
final class RuntimeChannelEvents implements ChannelEvents {

    private final ChannelTable channels;
    private final Launcher launcher;
    private final RuntimeShutdown shutdown;

    RuntimeChannelEvents(ChannelTable channels, Launcher launcher, RuntimeShutdown shutdown) {
        this.channels = channels;
        this.launcher = launcher;
        this.shutdown = shutdown;
    }

    @Override
    public void channelFailed(PublishChannel channel, Throwable cause, int device) {
        if (cause instanceof DeviceException d && d.sticky()) {
            deviceFailed(d.device() >= 0 ? d.device() : device, cause);
        }
    }

    @Override
    public void deviceFailed(int device, Throwable cause) {
        for (PublishChannel ch : channels.channels()) {
            if (ch.spec().producer() == device) {
                Channels.fail(ch, cause, device);
            } else if (ch.consumerDevices().contains(device)) {
                Channels.consumerDeviceLost(ch, device, cause);
            }
        }
    }

    @Override
    public void channelClosed(PublishChannel channel) {
        for (ConsumerPort p : Channels.ports(channel)) {
            launcher.unregister(p);
        }
        channels.remove(channel);
    }

    @Override
    public void channelReleased(PublishChannel channel) {
        shutdown.channelReleased();
    }
}

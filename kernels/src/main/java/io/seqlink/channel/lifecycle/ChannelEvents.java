package io.seqlink.channel.lifecycle;

import io.seqlink.channel.PublishChannel;

/** What a channel tells its owner (the runtime) about its life. */
public interface ChannelEvents {

    /** The channel failed closed; {@code device} is where the error came from. */
    void channelFailed(PublishChannel channel, Throwable cause, int device);

    /** A device reported a sticky error: every channel on it must close. */
    void deviceFailed(int device, Throwable cause);

    /** The channel was closed. */
    void channelClosed(PublishChannel channel);

    /**
     * The channel's memory was freed: at its close, or later, when a listener that was still running
     * returned. Runs on whichever thread left the channel last.
     */
    default void channelReleased(PublishChannel channel) {
    }

    /** Events that go nowhere. */
    ChannelEvents NONE = new ChannelEvents() {
        @Override
        public void channelFailed(PublishChannel channel, Throwable cause, int device) {
        }

        @Override
        public void deviceFailed(int device, Throwable cause) {
        }

        @Override
        public void channelClosed(PublishChannel channel) {
        }
    };
}

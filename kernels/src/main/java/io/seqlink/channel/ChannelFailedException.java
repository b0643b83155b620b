package io.seqlink.channel;

import io.seqlink.error.SeqlinkException;

/** An operation on a channel that a device error closed. */
public class ChannelFailedException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    public ChannelFailedException(String channel, Throwable cause) {
        super("channel '" + channel + "' failed and is closed: " + cause.getMessage(), cause);
    }
}

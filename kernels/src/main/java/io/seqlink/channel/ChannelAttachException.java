package io.seqlink.channel;

import io.seqlink.error.SeqlinkException;
import org.jspecify.annotations.Nullable;

/** An attach to a shared channel failed; the message names the channel, the cause and the fix. Nothing was changed. */
public class ChannelAttachException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    public ChannelAttachException(String message) {
        super(message);
    }

    public ChannelAttachException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}

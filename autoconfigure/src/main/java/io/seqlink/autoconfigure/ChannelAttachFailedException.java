package io.seqlink.autoconfigure;

import io.seqlink.channel.ChannelAttachException;
import io.seqlink.error.SeqlinkException;
import java.nio.file.Path;

/**
 * A channel under {@code seqlink.attach} could not be attached at startup: its producer is absent, refused it, or does
 * not match; the cause says which ({@link ChannelAttachException#reason()}). Its failure analyzer names the properties
 * to check and the fix.
 */
public class ChannelAttachFailedException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final String channel;
    private final String prefix;
    private final String directory;
    private final ChannelAttachException attachFailure;

    ChannelAttachFailedException(String channel, String prefix, Path directory, ChannelAttachException cause) {
        super("seqlink could not attach to channel '" + channel + "' (" + prefix.substring(0, prefix.length() - 1) + "): "
                + cause.getMessage(), cause);
        this.channel = channel;
        this.prefix = prefix;
        this.directory = directory.toString();
        this.attachFailure = cause;
    }

    /** The attached channel's name. */
    public String channel() {
        return channel;
    }

    /** Its properties' prefix, ending in a dot: {@code seqlink.attach.frames.}. */
    public String prefix() {
        return prefix;
    }

    /** The share directory it looked in. */
    public String directory() {
        return directory;
    }

    /** The runtime's reason. */
    public ChannelAttachException attachFailure() {
        return attachFailure;
    }
}

package io.seqlink.channel;

import io.seqlink.error.SeqlinkException;
import org.jspecify.annotations.Nullable;

/**
 * An attach to a shared channel failed; the message names the channel, the cause and the fix, and {@link #reason()}
 * says which kind of cause it was. Nothing was changed.
 */
public class ChannelAttachException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    /** What kept the attach from succeeding. */
    public enum Reason {
        /** The share directory is not safe to use (another user's, or open to group or others), or cannot be read. */
        DIRECTORY,
        /** No producer shares the channel in the directory: its socket is not there. */
        NO_PRODUCER,
        /** The socket is there but nobody listens on it: the producer that shared it exited. */
        NOT_LISTENING,
        /** The producer could not prove the channel's secret: this process has another secret (or it is no seqlink producer). */
        PRODUCER_NOT_PROVEN,
        /** The producer refused the attach; the message carries its reason (a wrong secret, another version, no free seat, another user). */
        REFUSED,
        /** The producer's protocol, layout or region does not match this runtime's: another seqlink version, or a stale region. */
        INCOMPATIBLE,
        /** Anything else: no answer within the connect timeout, a device or runtime problem. */
        OTHER
    }

    private final Reason reason;

    public ChannelAttachException(String message) {
        this(Reason.OTHER, message, null);
    }

    public ChannelAttachException(String message, @Nullable Throwable cause) {
        this(Reason.OTHER, message, cause);
    }

    public ChannelAttachException(Reason reason, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Which kind of cause kept the attach from succeeding. */
    public Reason reason() {
        return reason;
    }
}

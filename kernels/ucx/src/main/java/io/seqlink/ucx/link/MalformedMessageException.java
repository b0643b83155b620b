package io.seqlink.ucx.link;

/**
 * A received message that is not what the protocol allows (too short, a wrong magic or version, a
 * length or range out of bounds). The decoders ({@link Handshake}, {@link LinkMessages}) throw it and
 * nothing else for any input; the link refuses the message, counts it and drops only the endpoint it
 * came on. It carries no stack trace: a hostile peer can send many.
 */
public final class MalformedMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message, null, false, false);
    }
}

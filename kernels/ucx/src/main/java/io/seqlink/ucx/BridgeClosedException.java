package io.seqlink.ucx;

import io.seqlink.error.SeqlinkException;

/** Thrown to the local consumer port when a frame arrives after the bridge closed: the port holds the frame. */
public class BridgeClosedException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    public BridgeClosedException(String message) {
        super(message);
    }
}

package io.seqlink;

/** The root of seqlink's exceptions. */
public class SeqlinkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SeqlinkException(String message) {
        super(message);
    }

    public SeqlinkException(String message, Throwable cause) {
        super(message, cause);
    }
}

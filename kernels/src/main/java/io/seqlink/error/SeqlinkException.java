package io.seqlink.error;

import org.jspecify.annotations.Nullable;

/**
 * The root of seqlink's exceptions. It lives in a package of its own that imports nothing of seqlink, so
 * that every package can extend it while {@code io.seqlink.SeqlinkRuntime} imports those packages
 * without forming a package cycle.
 */
public class SeqlinkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SeqlinkException(String message) {
        super(message);
    }

    public SeqlinkException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}

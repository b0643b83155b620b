package io.seqlink.backend;

import io.seqlink.error.SeqlinkException;
import org.jspecify.annotations.Nullable;

/** The requested backend cannot run here: no driver, no device, or its library failed to load. */
public class BackendUnavailableException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    public BackendUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}

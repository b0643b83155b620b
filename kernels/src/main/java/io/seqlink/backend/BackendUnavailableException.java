package io.seqlink.backend;

import io.seqlink.error.SeqlinkException;
import org.jspecify.annotations.Nullable;

/**
 * The requested backend cannot run here: no driver, no device, or its library failed to load. The
 * message is {@link #problem()} (what is wrong and what to install), then what to choose instead, named
 * as the property {@code seqlink.backend} and as the Java API's {@code BackendSelection}; the Spring
 * Boot starter's failure analysis shows {@link #problem()} and lists the alternatives itself.
 */
public class BackendUnavailableException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final String problem;

    /** A failure with nothing to choose instead; the message is {@code problem}. */
    public BackendUnavailableException(String problem, @Nullable Throwable cause) {
        super(problem, cause);
        this.problem = problem;
    }

    /** A failure whose message is {@code problem}, then "or " and {@code alternative} (what to choose instead). */
    public BackendUnavailableException(String problem, String alternative, @Nullable Throwable cause) {
        super(problem + ", or " + alternative, cause);
        this.problem = problem;
    }

    /** What is wrong and what to install, without the alternative choice of backend. */
    public String problem() {
        return problem;
    }
}

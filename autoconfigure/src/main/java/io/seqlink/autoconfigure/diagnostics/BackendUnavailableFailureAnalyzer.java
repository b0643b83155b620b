package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.backend.BackendUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports {@code seqlink.backend=cuda} on a machine where the CUDA backend cannot run: the runtime's
 * {@link BackendUnavailableException#problem()} and the first failure in one line each, then the
 * alternatives as properties with what each does. The failure in full (JCuda's loader error carries the
 * stack traces of every attempt to load its library in its message) is logged at DEBUG.
 */
class BackendUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<BackendUnavailableException> {

    private static final Logger log = LoggerFactory.getLogger(BackendUnavailableFailureAnalyzer.class);

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BackendUnavailableException cause) {
        Throwable first = cause.getCause();
        if (first != null) {
            log.debug("seqlink: the CUDA backend's first failure in full", first);
        }
        String description = "The seqlink CUDA backend cannot run here (seqlink.backend=cuda):\n\n    " + firstLine(cause.problem())
                + (first == null ? "" : "\n    First failure: " + first.getClass().getName() + ": " + firstLine(first.getMessage())
                        + " (in full at DEBUG: logging.level.io.seqlink.autoconfigure.diagnostics=debug)");
        String action = """
                Make a GPU usable, or choose another backend:

                    - Install the NVIDIA driver (it provides libcuda.so.1) and check that a GPU is visible: nvidia-smi.
                      In a container, run it with the GPU passed through (e.g. docker run --gpus all).
                    - Keep org.jcuda:jcuda and org.jcuda:jcuda-natives on the classpath (the seqlink starter brings both).
                    - Or set seqlink.backend=auto to use the GPU when there is one and the emulated backend otherwise,
                      or seqlink.backend=emulated to always emulate.
                """;
        return new FailureAnalysis(description, action, cause);
    }

    private static String firstLine(@Nullable String text) {
        if (text == null) {
            return "(no message)";
        }
        int end = text.indexOf('\n');
        return (end < 0 ? text : text.substring(0, end)).strip();
    }
}

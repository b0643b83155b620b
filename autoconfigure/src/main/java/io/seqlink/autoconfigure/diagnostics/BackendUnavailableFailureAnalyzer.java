package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.backend.BackendUnavailableException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports {@code seqlink.backend=cuda} on a machine where the CUDA backend cannot run: the runtime's
 * {@link BackendUnavailableException#problem()}, then the alternatives as properties with what each does.
 */
class BackendUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<BackendUnavailableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BackendUnavailableException cause) {
        String description = "The seqlink CUDA backend cannot run here (seqlink.backend=cuda):\n\n    " + cause.problem()
                + (cause.getCause() == null ? "" : "\n    First failure: " + cause.getCause());
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
}

package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.backend.KernelsMissingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a CUDA backend without its compiled kernels (the seqlink-kernels jar was built without nvcc). */
class KernelsMissingFailureAnalyzer extends AbstractFailureAnalyzer<KernelsMissingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, KernelsMissingException cause) {
        String description = "The seqlink CUDA kernels are missing: there is no classpath resource '" + cause.resource()
                + "'. The seqlink-kernels jar on the classpath was built on a machine without nvcc, so it holds no "
                + "fat binary.";
        String action = """
                Rebuild seqlink-kernels with the CUDA toolkit, or run without CUDA:

                    - On a machine with the CUDA toolkit: mvn -pl kernels install (nvcc on PATH, or NVCC=/path/to/nvcc),
                      then rebuild the application.
                    - Or set seqlink.backend=emulated (or auto on a machine without a GPU) to run on the emulated backend.
                """;
        return new FailureAnalysis(description, action, cause);
    }
}

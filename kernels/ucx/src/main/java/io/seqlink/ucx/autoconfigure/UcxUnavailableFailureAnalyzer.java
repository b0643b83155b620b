package io.seqlink.ucx.autoconfigure;

import io.seqlink.ucx.UcxInfo;
import io.seqlink.ucx.UcxUnavailableException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports UCX bridges configured on a machine whose UCX libraries are missing or do not match JUCX. */
class UcxUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<UcxUnavailableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UcxUnavailableException cause) {
        UcxInfo info = cause.info();
        String description = "seqlink.ucx bridges are configured, but UCX cannot be used here:\n\n    " + info.problem()
                + "\n\n    JUCX " + info.jucxVersion() + ", UCX library: " + info.library() + " (version " + info.ucxVersion() + ")"
                + (cause.getCause() == null ? "" : "\n    First failure: " + cause.getCause());
        String action = """
                Install UCX, or turn the bridges off:

                    - Debian/Ubuntu: apt-get install libucx0 ucx-utils   (bookworm: UCX 1.13.1, host memory, tcp/verbs)
                    - HPC-X, DOCA or a UCX of your own (needed for CUDA memory): put its lib directory on LD_LIBRARY_PATH
                      (check with: ucx_info -v; seqlink-ucx binds JUCX 1.12.1, which needs UCX 1.12 or newer)
                    - Or remove seqlink.ucx.senders / seqlink.ucx.receivers, or set seqlink.ucx.enabled=false.
                """;
        return new FailureAnalysis(description, action, cause);
    }
}

package io.seqlink.ucx.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.ucx.UcxInfo;
import io.seqlink.ucx.UcxUnavailableException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

class UcxUnavailableFailureAnalyzerTests {

    @Test
    void missingLibrariesAreReportedWithWhatToInstall() {
        UnsatisfiedLinkError cause = new UnsatisfiedLinkError("Native code library failed to load: libjucx.so. "
                + "libucp.so.0: cannot open shared object file: No such file or directory");
        UcxInfo info = new UcxInfo(false, "1.12.1", "unknown", "not loaded", List.of(),
                "UCX's libraries are not installed (" + cause.getMessage() + ").");
        FailureAnalysis analysis = new UcxUnavailableFailureAnalyzer().analyze(new IllegalStateException("wrapped",
                new UcxUnavailableException(info, cause)));
        assertThat(analysis.getDescription()).contains("libucp.so.0", "JUCX 1.12.1");
        assertThat(analysis.getAction()).contains("apt-get install libucx0 ucx-utils", "LD_LIBRARY_PATH", "seqlink.ucx.enabled=false");
    }
}

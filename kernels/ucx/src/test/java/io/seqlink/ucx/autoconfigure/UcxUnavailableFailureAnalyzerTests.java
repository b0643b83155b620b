package io.seqlink.ucx.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.ucx.UcxEnvironment;
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
        FailureAnalysis analysis = analyze(cause, "not loaded", "unknown");
        assertThat(analysis.getDescription()).contains("UCX's libraries are not installed", "libucp.so.0", "JUCX 1.12.1");
        assertThat(analysis.getAction()).contains("apt-get install libucx0 ucx-utils", "LD_LIBRARY_PATH", "seqlink.ucx.enabled=false");
    }

    @Test
    void librariesThatDoNotMatchTheBindingAreReportedAsMismatchedNamingTheLibraryFound() {
        UnsatisfiedLinkError cause = new UnsatisfiedLinkError("/tmp/jucx/libjucx.so: undefined symbol: ucp_memh_pack");
        FailureAnalysis analysis = analyze(cause, "/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0", "1.13.1");
        assertThat(analysis.getDescription()).contains("do not match JUCX 1.12.1", "undefined symbol: ucp_memh_pack",
                "/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0 (version 1.13.1)", "First failure: java.lang.UnsatisfiedLinkError");
        assertThat(analysis.getAction()).contains("ucx_info -v", "UCX 1.12 or newer");
    }

    @Test
    void aMissingBindingIsReportedAsAClassPathProblem() {
        FailureAnalysis analysis = analyze(new NoClassDefFoundError("org/openucx/jucx/ucp/UcpContext"), "not loaded", "unknown");
        assertThat(analysis.getDescription()).contains("not on the classpath", "org.openucx:jucx:1.12.1");
    }

    /** The analysis of what UcxEnvironment reports for {@code cause}: the problem text comes from the real describe. */
    private static FailureAnalysis analyze(Throwable cause, String library, String version) {
        UcxInfo info = new UcxInfo(false, "1.12.1", version, library, List.of(), UcxEnvironment.describe(cause, "1.12.1"));
        return new UcxUnavailableFailureAnalyzer().analyze(new IllegalStateException("wrapped", new UcxUnavailableException(info, cause)));
    }
}

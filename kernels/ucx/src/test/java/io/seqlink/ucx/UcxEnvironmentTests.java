package io.seqlink.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What each way of failing to load UCX is reported as, with the fix that fits it. */
class UcxEnvironmentTests {

    @Test
    void librariesOlderThanTheBindingAreReportedAsMismatchedNamingTheSymbolAndTheJucxVersion() {
        UnsatisfiedLinkError e = new UnsatisfiedLinkError("/tmp/jucx123/libjucx.so: /tmp/jucx123/libjucx.so: undefined symbol: "
                + "ucp_memh_pack");
        String problem = UcxEnvironment.describe(e, "1.15.0");
        assertThat(problem).contains("do not match JUCX 1.15.0", "undefined symbol: ucp_memh_pack", "older than it needs",
                "apt-get install libucx0 ucx-utils", "LD_LIBRARY_PATH");
    }

    @Test
    void aMissingBindingIsReportedAsAClassPathProblem() {
        String problem = UcxEnvironment.describe(new NoClassDefFoundError("org/openucx/jucx/ucp/UcpParams"), "1.12.1");
        assertThat(problem).contains("org.openucx:jucx", "not on the classpath", "Add org.openucx:jucx:1.12.1");
    }

    @Test
    void aBindingThatFailedEarlierIsReportedAsThatNotAsAMissingJar() {
        NoClassDefFoundError e = new NoClassDefFoundError("Could not initialize class org.openucx.jucx.ucp.UcpContext");
        String problem = UcxEnvironment.describe(e, "1.12.1");
        assertThat(problem).contains("failed to initialize earlier", "UnsatisfiedLinkError").doesNotContain("not on the classpath");
    }

    @Test
    void aFailureInsideTheBindingsInitializerIsReportedByItsCause() {
        ExceptionInInitializerError e = new ExceptionInInitializerError(new UnsatisfiedLinkError(
                "libucp.so.0: cannot open shared object file: No such file or directory"));
        assertThat(UcxEnvironment.describe(e, "1.12.1")).contains("not installed", "libucp.so.0: cannot open shared object file");
    }

    @Test
    void aContextUcxRefusesPointsAtTheUcxEnvironmentVariables() {
        String problem = UcxEnvironment.describe(new IllegalStateException("No such device"), "1.12.1");
        assertThat(problem).contains("could not open a context", "UCX_TLS=tcp");
    }
}

package io.seqlink.sample.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.Backends;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@code verify} mode in process on the emulated backend (the packaged jar is exercised by
 * {@code CommandLineIT}): the table, and the exit status for a topology that holds, one that does not,
 * and a configuration that cannot start.
 */
class VerifyCommandTests {

    @Test
    void printsEveryLinkAndExitsZeroWhenEveryRequiredLinkHolds() {
        Run run = verify("--seqlink.backend=emulated");
        assertThat(run.status).as(run.out).isEqualTo(VerifyCommand.OK);
        assertThat(run.out)
                .contains("seqlink topology")
                .contains("backend    emulated (the emulated backend was chosen)")
                .containsPattern("LINK\\s+CHANNELS\\s+VERDICT\\s+ATOMIC ADD\\s+ACQUIRE LOAD\\s+SCALING\\s+PROBE\\s+REQUIRED")
                .containsPattern("0 -> 1\\s+frames\\s+peer-atomic\\s+\\d+(\\.\\d+)? (ns|us)\\s+\\S+ (ns|us)\\s+x\\S+\\s+ok\\s+ok")
                .containsPattern("0 -> 2\\s+frames\\s+peer-copy\\s+-\\s+-\\s+-\\s+-\\s+ok")
                .containsPattern("1 -> 0\\s+results-1\\s+peer-atomic")
                .containsPattern("2 -> 0\\s+results-2\\s+peer-copy")
                .containsPattern("1 -> 2\\s+-\\s+host-staged\\s+-\\s+-\\s+-\\s+-\\s+not used")
                .contains("RESULT: OK: all 4 link(s) the channels use are host-staged or better.");
    }

    @Test
    void onAFallbackTheBackendLineSaysWhyInAFewWords() {
        Assumptions.assumeTrue(Backends.cudaProvider() == null || !Backends.cudaProvider().detect().usable(),
                "a CUDA driver answers here");
        Run run = verify();
        assertThat(run.status).as(run.out).isEqualTo(VerifyCommand.OK);
        assertThat(run.out).contains("backend    emulated (no usable CUDA driver").doesNotContain("UnsatisfiedLinkError");
    }

    @Test
    void exitsTwoAndNamesTheLinksWhenARequiredLinkFails() {
        Run run = verify("--seqlink.backend=emulated", "--seqlink.topology.required-link-class=peer-atomic");
        assertThat(run.status).as(run.out).isEqualTo(VerifyCommand.LINK_FAILED);
        assertThat(run.out)
                .containsPattern("0 -> 2\\s+frames\\s+peer-copy.*FAIL")
                .contains("RESULT: FAIL: 2 of 4 link(s) the channels use do not meet peer-atomic:")
                .contains("0 -> 2: peer-copy is below the required peer-atomic")
                .contains("2 -> 0: peer-copy is below the required peer-atomic")
                .contains("seqlink.topology.on-unsupported=fail");
    }

    @Test
    void exitsOneWhenTheConfigurationCannotStart() {
        Run run = verify("--seqlink.backend=emulated", "--seqlink.channels.frames.consumers=7");
        assertThat(run.status).isEqualTo(VerifyCommand.STARTUP_FAILED);
        assertThat(run.out).isEmpty();
    }

    static Run verify(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = VerifyCommand.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Run(status, bytes.toString(StandardCharsets.UTF_8));
    }

    record Run(int status, String out) {
    }
}

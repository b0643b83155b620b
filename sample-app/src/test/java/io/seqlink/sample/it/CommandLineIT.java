package io.seqlink.sample.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar's command-line modes on the emulated backend: {@code verify}, {@code bench}, and a wrong mode. */
class CommandLineIT {

    static final Duration LIMIT = Duration.ofSeconds(120);

    @Test
    void verifyPrintsTheTopologyTableWithoutAWebServerAndExitsZero() throws Exception {
        SampleProcess.Result r = SampleProcess.run("verify-ok", LIMIT, args("verify"));
        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output())
                .containsPattern("LINK\\s+CHANNELS\\s+VERDICT\\s+ATOMIC ADD\\s+ACQUIRE LOAD\\s+SCALING\\s+PROBE\\s+REQUIRED")
                .containsPattern("0 -> 1\\s+frames\\s+peer-atomic")
                .containsPattern("2 -> 0\\s+results-2\\s+peer-copy")
                .contains("RESULT: OK")
                .doesNotContain("Tomcat started")
                .doesNotContain("sample pipeline:");
    }

    @Test
    void verifyExitsTwoWhenALinkTheChannelsUseIsBelowTheRequiredClass() throws Exception {
        SampleProcess.Result r = SampleProcess.run("verify-fail", LIMIT,
                args("verify", "--seqlink.topology.required-link-class=peer-atomic"));
        assertThat(r.status()).as(r.output()).isEqualTo(2);
        assertThat(r.output()).containsPattern("0 -> 2\\s+frames\\s+peer-copy.*FAIL")
                .contains("0 -> 2: peer-copy is below the required peer-atomic");
    }

    @Test
    void benchRunsTheHarnessWithoutAWebServer(@TempDir Path out) throws Exception {
        SampleProcess.Result r = SampleProcess.run("bench", LIMIT, "bench", "--backend", "emulated", "--quick",
                "--scenarios", "pipeline", "--pipeline-frames", "40", "--pipeline-pixels", "4096", "--pipeline-rows", "16",
                "--out", out.toString());
        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).contains("Share of pipeline time").doesNotContain("Tomcat started");
        assertThat(out.resolve("bench-results.json")).isNotEmptyFile();
        assertThat(Files.readString(out.resolve("bench-results.json"))).contains("pipeline");
    }

    @Test
    void benchWithABadOptionSaysWhichAndExitsTwo() throws Exception {
        SampleProcess.Result r = SampleProcess.run("bench-bad", LIMIT, "bench", "--frames", "many");
        assertThat(r.status()).as(r.output()).isEqualTo(2);
        assertThat(r.output()).contains("--frames");
    }

    @Test
    void anUnknownModeExits64WithTheUsage() throws Exception {
        SampleProcess.Result r = SampleProcess.run("unknown-mode", LIMIT, "verfiy");
        assertThat(r.status()).isEqualTo(64);
        assertThat(r.output()).contains("Unknown mode 'verfiy'").contains("verify").contains("bench");
    }

    private static String[] args(String mode, String... more) {
        List<String> all = new ArrayList<>(List.of(mode));
        all.addAll(SampleProcess.emulatedArgs());
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}

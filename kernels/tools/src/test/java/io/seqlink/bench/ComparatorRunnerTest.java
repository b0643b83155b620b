package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.report.ReportJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The subprocess handling, with shell scripts standing in for the comparator (no GPU needed). */
class ComparatorRunnerTest {

    @TempDir
    Path dir;

    private Path script(String body) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
        Path fixture = dir.resolve("fixture.json");
        Files.writeString(fixture, ComparatorFixture.DOCUMENT);
        Path p = dir.resolve("fake-cycle-bench");
        Files.writeString(p, "#!/bin/sh\n" + body.replace("FIXTURE", fixture.toString()) + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    @Test
    void passesTheArgumentsAndParsesTheDocument() throws Exception {
        Path args = dir.resolve("args.txt");
        Path fake = script("echo \"$@\" > " + args + "\necho progress >&2\ncat FIXTURE");

        ComparatorRunner.Run run = new ComparatorRunner(fake, 10_000_000_000L).run(List.of("--mode", "cycle", "--sizes", "64"));

        assertThat(run.exitCode()).isZero();
        assertThat(run.problem()).isNull();
        assertThat(run.report()).isNotNull();
        assertThat(run.report().cycles).isNotEmpty();
        assertThat(Files.readString(args).trim()).isEqualTo("--mode cycle --sizes 64");
        assertThat(ReportJson.read(ReportJson.writeSnakeCase(run)).has("document")).isTrue();
    }

    @Test
    void exitOneStillCarriesResultsAndIsReported() throws Exception {
        Path fake = script("cat FIXTURE\nexit 1");

        ComparatorRunner.Run run = new ComparatorRunner(fake, 10_000_000_000L).run(List.of());

        assertThat(run.report()).isNotNull();
        assertThat(run.problem()).contains("exit 1");
    }

    @Test
    void aCrashWithoutOutputIsAProblemNotAnException() throws Exception {
        Path fake = script("echo 'seqlink-cycle-bench: cudaGetDeviceCount failed' >&2\nexit 2");

        ComparatorRunner.Run run = new ComparatorRunner(fake, 10_000_000_000L).run(List.of());

        assertThat(run.report()).isNull();
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.problem()).contains("no JSON");
    }

    @Test
    void aHungComparatorIsKilledAtTheTimeout() throws Exception {
        Path fake = script("exec sleep 30");

        ComparatorRunner.Run run = new ComparatorRunner(fake, 300_000_000L).run(List.of());

        assertThat(run.report()).isNull();
        assertThat(run.problem()).contains("did not finish");
    }
}

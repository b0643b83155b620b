package io.seqlink.ucx.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/ensure-ucx.sh} on the machines it meets, with {@code id}, {@code ldconfig} and
 * {@code apt-get} stood in for by scripts first on the PATH: the build must stop where the UCX proof
 * could run but UCX cannot be had, and skip (saying why) only where it cannot be installed at all.
 */
class EnsureUcxScriptTests {

    private static final Path SCRIPT = Path.of("../../scripts/ensure-ucx.sh").toAbsolutePath().normalize();

    @TempDir
    Path bin;

    @Test
    void asRootWithAptGetAFailedInstallStopsTheBuildSayingWhatToDo() throws Exception {
        fake("id", "echo 0");
        fake("ldconfig", "exit 0"); // knows no libucp
        fake("apt-get", "echo 'E: Unable to locate package libucx0'; exit 100");
        Result r = run(Map.of());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output()).contains("Unable to locate package libucx0", "apt-get could not install libucx0",
                "-pl '!kernels/ucx'");
    }

    @Test
    void asRootWithAptGetASuccessfulInstallGoesOn() throws Exception {
        fake("id", "echo 0");
        fake("ldconfig", "exit 0");
        fake("apt-get", "exit 0");
        Result r = run(Map.of());
        assertThat(r.exit()).isZero();
        assertThat(r.output()).contains("installing Debian's libucx0", "installed UCX");
    }

    @Test
    void notRootTheUcxTestsSkipSayingWhatToInstall() throws Exception {
        fake("id", "echo 1000");
        fake("ldconfig", "exit 0");
        fake("apt-get", "echo 'apt-get must not run'; exit 100");
        Result r = run(Map.of());
        assertThat(r.exit()).isZero();
        assertThat(r.output()).contains("this build does not run as root", "sudo apt-get install libucx0 ucx-utils")
                .doesNotContain("apt-get must not run");
    }

    @Test
    void aUcxHomeWithoutLibucpStopsTheBuildNamingUcxHomeAndNeverInstalls() throws Exception {
        fake("id", "echo 0");
        fake("ldconfig", "exit 0");
        fake("apt-get", "echo 'apt-get must not run'; exit 100");
        Result r = run(Map.of("UCX_HOME", bin.resolve("no-ucx-here").toString()));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output()).contains("UCX_HOME=" + bin.resolve("no-ucx-here") + " has no lib/libucp.so.0",
                "point UCX_HOME at the UCX install prefix").doesNotContain("apt-get must not run", "not root");
    }

    @Test
    void aUcxHomeWithLibucpIsUsed() throws Exception {
        Path home = bin.resolve("ucx");
        Files.createDirectories(home.resolve("lib"));
        Files.createFile(home.resolve("lib/libucp.so.0"));
        fake("id", "echo 1000");
        Result r = run(Map.of("UCX_HOME", home.toString()));
        assertThat(r.exit()).isZero();
        assertThat(r.output()).contains("from UCX_HOME=" + home);
    }

    private void fake(String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Result run(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true);
        pb.environment().remove("UCX_HOME");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the script ends").isTrue();
        return new Result(p.exitValue(), out);
    }

    private record Result(int exit, String output) {
    }
}

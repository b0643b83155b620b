package io.seqlink.sample.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/prometheus/seqlink-alerts.yml passes {@code promtool check rules} and its unit tests
 * ({@code promtool test rules seqlink-alerts.test.yml}) through scripts/check-alert-rules.sh. Skipped,
 * saying why, where promtool is not installed (Debian's {@code prometheus} package has it).
 */
class AlertRulesTests {

    static final Path ROOT = Path.of(System.getProperty("seqlink-build.root", "..")).toAbsolutePath().normalize();

    @Test
    void theAlertingRulesPassPromtool() throws IOException, InterruptedException {
        assumeTrue(onPath("promtool"), "promtool is not on PATH: the alerting rules are not checked (apt-get install prometheus)");
        Path log = Files.createTempFile("check-alert-rules", ".log");
        Process p = new ProcessBuilder("bash", ROOT.resolve("scripts/check-alert-rules.sh").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("promtool finished").isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("scripts/check-alert-rules.sh:%n%s", out).isZero();
        assertThat(out).contains("SUCCESS").doesNotContain("SKIPPED");
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator)).map(d -> Path.of(d, command)).anyMatch(Files::isExecutable);
    }
}

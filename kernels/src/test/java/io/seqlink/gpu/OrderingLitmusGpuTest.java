package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code seqlink-litmus} (src/test/cuda/litmus.cu): one litmus test per ordering helper of
 * seqlink_sync.cuh on the GPU. Every test that relies on an ordering sees no forbidden outcome, and the
 * control that removes the acquire (data read through the SM's incoherent L1) does see one, which proves
 * the tests can fail. Found at {@code -Dseqlink-build.litmus}, then {@code target/native/}.
 */
@Tag("gpu")
class OrderingLitmusGpuTest {

    private static final Pattern RESULT = Pattern.compile(
            "\\{\"test\":\"([^\"]+)\",\"helpers\":\"[^\"]*\",\"expect\":\"([^\"]+)\",\"trials\":(\\d+),\"weak\":(\\d+),\"timeouts\":(\\d+),\"ok\":(true|false)}");

    @Test
    void everyOrderingHelperHoldsAndTheControlsShowTheTestsCanFail() throws Exception {
        Gpu.assumeDriver();
        String prop = System.getProperty("seqlink-build.litmus", "");
        Path bin = prop.isBlank() ? Path.of("target/native/seqlink-litmus") : Path.of(prop);
        assumeTrue(Files.isExecutable(bin), bin + " was not built (no nvcc when the kernels module was built)");
        Process p = new ProcessBuilder(bin.toString()).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("seqlink-litmus finished").isTrue();
        System.out.println(err);
        String json = new String(out, StandardCharsets.UTF_8);
        Matcher m = RESULT.matcher(json);
        int tests = 0;
        boolean mustFailSeen = false;
        while (m.find()) {
            tests++;
            String name = m.group(1);
            String expect = m.group(2);
            long weak = Long.parseLong(m.group(4));
            if (expect.equals("never")) {
                assertThat(weak).as("%s: forbidden outcomes", name).isZero();
                assertThat(Long.parseLong(m.group(3))).as("%s: trials", name).isPositive();
            } else if (expect.equals("must-fail")) {
                mustFailSeen = true;
                assertThat(weak).as("%s: the control must see the weak outcome", name).isPositive();
            }
        }
        assertThat(tests).as("litmus results in\n%s", json).isGreaterThanOrEqualTo(20);
        assertThat(mustFailSeen).isTrue();
        assertThat(p.exitValue()).as("seqlink-litmus exit status\n%s", err).isZero();
    }
}

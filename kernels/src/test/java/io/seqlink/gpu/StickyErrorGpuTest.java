package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A kernel fault is reported as a sticky {@link io.seqlink.backend.DeviceException} carrying the
 * driver's error name, the channel on that device fails closed (its producer gets an exception, not
 * a crash), and the runtime still closes and the JVM exits normally. Runs in a child JVM, because the
 * fault leaves the device's context unusable for the rest of that process.
 */
@Tag("gpu")
class StickyErrorGpuTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"illegal-address, CUDA_ERROR_ILLEGAL_ADDRESS", "trap, CUDA_ERROR_"})
    void aStickyFaultFailsTheChannelAndLeavesTheJvmStanding(String mode, String expectedError) throws Exception {
        Gpu.assumeDriver();
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), StickyErrorMain.class.getName(), mode)
                .redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child JVM finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        System.out.println(text);
        assertThat(text).contains("before=OPEN");
        assertThat(text).containsPattern("fault=" + expectedError + "[A-Z_]* sticky=true");
        assertThat(text).contains("channel=FAILED");
        assertThat(text).contains("exit=clean");
        assertThat(p.exitValue()).isZero();
    }
}

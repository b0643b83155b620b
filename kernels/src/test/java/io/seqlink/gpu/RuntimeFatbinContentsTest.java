package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.backend.cuda.KernelArgs;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The runtime fat binary every service loads holds the channel steps and the link probe and nothing else:
 * no benchmark baselines, no no-ops, no test fault, no workloads. Reads the kernels' names as `strings`
 * shows them (each embedded cubin names its kernels' {@code .text.<name>} sections). Runs without a GPU;
 * skipped when the build had no nvcc.
 */
class RuntimeFatbinContentsTest {

    private static final Pattern TEXT_SECTION = Pattern.compile("\\.text\\.([A-Za-z_][A-Za-z0-9_]*)");

    @Test
    void theRuntimeFatBinaryHoldsOnlyChannelStepsAndProbes() throws Exception {
        byte[] fatbin;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("io/seqlink/kernels/seqlink.fatbin")) {
            assumeTrue(in != null, "no io/seqlink/kernels/seqlink.fatbin: the build ran without nvcc");
            fatbin = in.readAllBytes();
        }
        Set<String> kernels = new TreeSet<>();
        Matcher m = TEXT_SECTION.matcher(new String(fatbin, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            kernels.add(m.group(1));
        }
        assertThat(kernels).containsExactlyInAnyOrderElementsOf(KernelArgs.RUNTIME_KERNELS);
        assertThat(kernels).allSatisfy(k -> assertThat(k).matches("seqlink_(publish|publish_init|consume|ack|ack_ready|write_value|probe_\\w+)"));
    }
}

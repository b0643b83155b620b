package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/device-kernels.md: its Java example runs (here on the emulated backend, through the kernels' Java
 * twins; UserKernelGpuTest runs it on a GPU) and its CUDA example is the file the build compiles, shown
 * whole. (The sample's DocSnippetsTests checks that the page shows the Java example verbatim.)
 */
class DeviceKernelsDocTest {

    @Test
    void theExampleRunsOnTheEmulatedBackend() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            DeviceKernelsExample.Outcome outcome = DeviceKernelsExample.run(backend);
            assertThat(outcome.published()).isEqualTo(4);
            assertThat(outcome.acknowledged()).isEqualTo(4);
            assertThat(outcome.sum()).isEqualTo(DeviceKernelsExample.expectedSum());
        }
    }

    @Test
    void thePageShowsTheCudaExampleTheBuildCompiles() throws Exception {
        String cuda = Files.readString(Path.of("src/test/cuda/device_kernels_example.cu"), StandardCharsets.UTF_8);
        String page = Files.readString(Path.of("../docs/device-kernels.md"), StandardCharsets.UTF_8);
        String tag = "<!-- source: kernels/src/test/cuda/device_kernels_example.cu -->\n```cuda\n";
        assertThat(page).as("the page shows the CUDA example whole, tagged with its source")
                .contains(tag + cuda.stripTrailing() + "\n```\n");
    }
}

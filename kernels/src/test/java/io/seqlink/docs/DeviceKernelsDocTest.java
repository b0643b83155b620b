package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/device-kernels.md: its Java example runs (here on the emulated backend, through the kernels' Java
 * twins; UserKernelGpuTest runs it on a GPU), its CUDA example is the file the build compiles, and the
 * page shows both as they are.
 */
class DeviceKernelsDocTest {

    /** Four frames of 1000 bytes, byte i of frame s = (s + i) & 0xFF. */
    static long expectedSum() {
        long sum = 0;
        for (long s = 1; s <= 4; s++) {
            for (int i = 0; i < 1000; i++) {
                sum += (s + i) & 0xFF;
            }
        }
        return sum;
    }

    @Test
    void theExampleRunsOnTheEmulatedBackend() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            DeviceKernelsExample.Outcome outcome = DeviceKernelsExample.run(backend);
            assertThat(outcome.published()).isEqualTo(4);
            assertThat(outcome.acknowledged()).isEqualTo(4);
            assertThat(outcome.sum()).isEqualTo(expectedSum());
        }
    }

    @Test
    void thePageShowsTheJavaExample() throws Exception {
        String source = Files.readString(Path.of("src/test/java/io/seqlink/docs/DeviceKernelsExample.java"));
        String example = Docs.between(source, "// --- example start\n", "        // --- example end");
        String page = Files.readString(Path.of("../docs/device-kernels.md"));
        assertThat(Docs.normalize(Docs.between(page, "```java\n", "```"))).isEqualTo(Docs.normalize(example));
    }

    @Test
    void thePageShowsTheCudaExampleTheBuildCompiles() throws Exception {
        String cuda = Files.readString(Path.of("src/test/cuda/device_kernels_example.cu"));
        String page = Files.readString(Path.of("../docs/device-kernels.md"));
        assertThat(Docs.normalize(Docs.between(page, "```cuda\n", "```"))).isEqualTo(Docs.normalize(cuda));
    }
}

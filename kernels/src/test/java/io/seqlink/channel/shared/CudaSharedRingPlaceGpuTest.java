package io.seqlink.channel.shared;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * {@link SharedRingPlaceTest} with the producer on the CUDA backend (device 0, its consumer in the producer's process on
 * device 0 too): the ring in the region its process registered with the driver, stamped and published by the CUDA
 * publish step's one warp; with a device consumer, the ring in device memory and the grid's push into the region. The
 * consumer process's side runs on the emulated backend in the same JVM: it maps the region as host memory, as any
 * process of the host does.
 */
@Tag("gpu")
class CudaSharedRingPlaceGpuTest extends SharedRingPlaceTest {

    @BeforeEach
    void driverAndSharedMemory() throws Exception {
        BackendProvider p = Backends.cudaProvider();
        assumeTrue(p != null && p.detect().usable(), "no usable CUDA driver");
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm)) { // tmpfs pages, where users put the share directory
            dir = Files.createTempDirectory(shm, "seqlink-gpu-test-").resolve("share");
        }
    }

    @AfterEach
    void removeDirectory() throws Exception {
        if (dir.startsWith("/dev/shm")) {
            try (var files = Files.walk(dir.getParent())) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Override
    SeqlinkRuntime producerRuntime() {
        return SeqlinkRuntime.builder().backend(BackendSelection.CUDA).open();
    }

    @Override
    int localConsumer() {
        return 0;
    }
}

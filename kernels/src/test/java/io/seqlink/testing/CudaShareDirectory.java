package io.seqlink.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.Backends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * What the GPU tests of shared channels set up: a usable CUDA driver (else the test is skipped) and a share directory on
 * {@code /dev/shm}, tmpfs pages, where users put it (as NCCL puts its shared memory).
 */
public final class CudaShareDirectory {

    private static final Path SHM = Path.of("/dev/shm");

    private CudaShareDirectory() {
    }

    /** Skips the test without a usable CUDA driver; a new share directory under /dev/shm, or {@code fallback} without it. */
    public static Path requireCudaAndShareDirectory(Path fallback) throws IOException {
        BackendProvider p = Backends.cudaProvider();
        assumeTrue(p != null && p.detect().usable(), "no usable CUDA driver");
        return Files.isDirectory(SHM) ? Files.createTempDirectory(SHM, "seqlink-gpu-test-").resolve("share") : fallback;
    }

    /** Removes what {@link #requireCudaAndShareDirectory} made for {@code dir}: nothing when it gave the fallback. */
    public static void remove(Path dir) throws IOException {
        if (dir.startsWith(SHM)) {
            try (var files = Files.walk(dir.getParent())) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}

package io.seqlink.shared;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * {@link TwoProcessChannelTest} with both processes on the CUDA backend (device 0): the producer's ring is in the shared
 * region its process registered with the driver (the producer's process has no consumer of the channel), its host and
 * its publish step write every frame there once, and the consumer process reads it in place. On one GPU the two processes' contexts are time-sliced; the outcomes (none lost,
 * duplicated or corrupt; drops, failures and re-attaches) are the same as on the emulated backend.
 */
@Tag("gpu")
class CudaTwoProcessChannelGpuTest extends TwoProcessChannelTest {

    @BeforeEach
    void driverAndSharedMemory() throws Exception {
        BackendProvider p = Backends.cudaProvider();
        assumeTrue(p != null && p.detect().usable(), "no usable CUDA driver");
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm)) { // where users put the share directory: tmpfs pages, as NCCL's shared memory is
            dir = Files.createTempDirectory(shm, "seqlink-gpu-test-").resolve("share");
        }
    }

    @AfterEach
    void removeDirectory() throws Exception {
        if (dir.startsWith("/dev/shm")) {
            SharedPeer.deleteTree(dir.getParent());
        }
    }

    @Override
    SeqlinkRuntime runtime() {
        return SharedPeer.runtime(SharedPeer.CUDA);
    }

    @Override
    List<String> childOptions() {
        return List.of("-D" + SharedPeer.BACKEND + "=" + SharedPeer.CUDA);
    }
}

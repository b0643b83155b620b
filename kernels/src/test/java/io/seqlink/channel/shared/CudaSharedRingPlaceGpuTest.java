package io.seqlink.channel.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.testing.CudaShareDirectory;
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
        dir = CudaShareDirectory.requireCudaAndShareDirectory(dir);
    }

    @AfterEach
    void removeDirectory() throws Exception {
        CudaShareDirectory.remove(dir);
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

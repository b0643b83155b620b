package io.seqlink.shared;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.testing.CudaShareDirectory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * {@link TwoProcessChannelTest} with both processes on the CUDA backend (device 0): the producer's ring is in the shared
 * region its process registered with the driver (the producer's process has no consumer of the channel), its host and
 * its publish step write every frame there once, and the consumer process reads it in place: a host listener on the
 * host, a device listener ({@code checksummedFramesReachADeviceListenerInAConsumerProcess},
 * {@code aConsumerWithADeviceListenerKilledMidStream...}: {@code test_armed_take} checksumming each frame) on the consumer
 * process's device, through its registration of the region, its acknowledgement forwarded into the seat by the host.
 * On one GPU the two processes' contexts are time-sliced; the outcomes (none lost, duplicated or corrupt; drops,
 * failures and re-attaches) are the same as on the emulated backend.
 */
@Tag("gpu")
class CudaTwoProcessChannelGpuTest extends TwoProcessChannelTest {

    @BeforeEach
    void driverAndSharedMemory() throws Exception {
        dir = CudaShareDirectory.requireCudaAndShareDirectory(dir);
    }

    @AfterEach
    void removeDirectory() throws Exception {
        CudaShareDirectory.remove(dir);
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

package io.seqlink.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How many hardware queues a CUDA context spreads its streams over, from {@code CUDA_DEVICE_MAX_CONNECTIONS}:
 * armed rounds wait on a stream only while a device has no more streams open than that (no aliasing).
 */
class HardwareQueuesTest {

    @Test
    void theDriversDefaultIsEightAndTheSettingIsClampedToWhatTheDriverAccepts() {
        assertThat(CudaDevice.hardwareQueues(null)).isEqualTo(8);
        assertThat(CudaDevice.hardwareQueues(" 4 ")).isEqualTo(4);
        assertThat(CudaDevice.hardwareQueues("0")).isEqualTo(1);
        assertThat(CudaDevice.hardwareQueues("64")).isEqualTo(32);
        assertThat(CudaDevice.hardwareQueues("many")).isEqualTo(8);
    }
}

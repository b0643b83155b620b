package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.KernelsMissingException;
import io.seqlink.backend.StagedLengthsScenario;
import io.seqlink.docs.DeviceKernelsExample;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The user-kernel API on a GPU: docs/device-kernels.md's producer kernel publishes at its end through the
 * channel's handles and the consumer kernel acquires, reads and acknowledges, with the bytes the emulated
 * twins compute; a missing image and a missing kernel are reported as the page says.
 */
@Tag("gpu")
class UserKernelGpuTest {

    @Test
    void theDocumentedProducerAndConsumerKernelsRunOnTheGpu() {
        try (Backend backend = Gpu.openBackend()) {
            DeviceKernelsExample.Outcome outcome = DeviceKernelsExample.run(backend);
            assertThat(outcome.published()).isEqualTo(4);
            assertThat(outcome.acknowledged()).isEqualTo(4);
            assertThat(outcome.sum()).isEqualTo(DeviceKernelsExample.expectedSum());
        }
    }

    @Test
    void aKernelThatPublishesKeepsItsLengthsOnAChannelWithAStagingRing() {
        try (Backend backend = Gpu.openBackend()) {
            StagedLengthsScenario.Outcome outcome = StagedLengthsScenario.run(backend);
            assertThat(outcome.lengths()).as("frames 1-4 from the kernel (set_length), 5 from the publish step's staging")
                    .containsExactly(1000, 1000, 1000, 1000, StagedLengthsScenario.STAGED);
            assertThat(outcome.sum()).isEqualTo(DeviceKernelsExample.expectedSum());
        }
    }

    @Test
    void aMissingImageOrKernelIsReportedAtTheBind() {
        try (Backend backend = Gpu.openBackend()) {
            DeviceStream s = backend.device(0).newStream("user-kernel-errors");
            KernelModule absent = KernelModule.builder("absent", KernelImage.ofResource("no/such/kernels.fatbin")).build();
            assertThatThrownBy(() -> s.bindKernel(absent, "k", KernelParam.U64)).isInstanceOf(KernelsMissingException.class)
                    .hasMessageContaining("no/such/kernels.fatbin");
            assertThatThrownBy(() -> s.bindKernel(TestKernels.MODULE, "no_such_kernel", KernelParam.U64))
                    .isInstanceOf(DeviceException.class).hasMessageContaining("has no kernel 'no_such_kernel'");
        }
    }
}

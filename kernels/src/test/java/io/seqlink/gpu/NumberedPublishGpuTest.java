package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.Backend;
import io.seqlink.backend.NumberedPublishScenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On CUDA the numbered publish of up to six frames is one batch of stream writes ({@code cuStreamBatchMemOp}), a
 * larger one the kernel: after every publish of the scenario its words equal the kernel's, batch sizes 1 to 8 and two
 * laps of the ring (doorbells and staged lengths included).
 */
@Tag("gpu")
class NumberedPublishGpuTest {

    @Test
    void theBatchOfStreamWritesPublishesWhatThePublishKernelDoes() {
        try (Backend b = Gpu.openBackend()) {
            NumberedPublishScenario.Outcome outcome = NumberedPublishScenario.run(b);
            assertThat(outcome.callerNumbered()).isEqualTo(outcome.deviceNumbered());
            assertThat(outcome.callerNumbered()).hasSize(NumberedPublishScenario.COUNTS.length);
            assertThat(outcome.callerNumbered().get(outcome.callerNumbered().size() - 1).publishSeq())
                    .isEqualTo(java.util.Arrays.stream(NumberedPublishScenario.COUNTS).sum());
        }
    }
}

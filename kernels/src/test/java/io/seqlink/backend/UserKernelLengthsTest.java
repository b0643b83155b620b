package io.seqlink.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.docs.DeviceKernelsExample;
import org.junit.jupiter.api.Test;

/**
 * A user kernel's publish keeps the lengths the kernel wrote, on a channel whose publish step copies lengths
 * from the staging ring: the handles a user kernel gets name no staging ring. (Before, the twin and the CUDA
 * handles copied the staged lengths too, so the consumer read 7 bytes of each 1000-byte frame.)
 */
class UserKernelLengthsTest {

    @Test
    void aKernelThatPublishesKeepsItsLengthsAndThePublishStepStillTakesTheStagedOnes() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            StagedLengthsScenario.Outcome outcome = StagedLengthsScenario.run(backend);
            assertThat(outcome.lengths()).containsExactly(1000, 1000, 1000, 1000, StagedLengthsScenario.STAGED);
            assertThat(outcome.sum()).isEqualTo(DeviceKernelsExample.expectedSum());
        }
    }
}

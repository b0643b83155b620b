package io.seqlink.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.BackendSelection;
import org.junit.jupiter.api.Test;

/**
 * Tracing is free when off: on the emulated backend, over 50,000 frames, neither the producer thread nor the
 * listener's thread allocates per frame with observation off or on but unsampled; at 100% every frame carries a
 * context and makes a publish and a process span. (No timing is asserted: {@link TracingCost} measures that.)
 */
class TracingAllocationTests {

    private static final long FRAMES = 50_000;

    @Test
    void offAndUnsampledAllocateNothingPerFrame() throws Exception {
        for (double p : new double[] {-1, 0}) {
            TracingCost.Row r = TracingCost.run(BackendSelection.EMULATED, p, 20_000, FRAMES, 64, 256);
            assertThat(r.producerBytesPerFrame()).as("producer B/frame, %s", r).isLessThan(0.5);
            assertThat(r.listenerBytesPerFrame()).as("listener B/frame, %s", r).isLessThan(0.5);
            assertThat(r.framesWithContext()).as(r.mode()).isZero();
            assertThat(r.spans()).as(r.mode()).isZero();
        }
    }

    @Test
    void everySampledFrameCarriesItsContextAndMakesAListenerSpan() throws Exception {
        TracingCost.Row r = TracingCost.run(BackendSelection.EMULATED, 1.0, 2_000, 5_000, 64, 256);
        assertThat(r.framesWithContext()).isEqualTo(5_000);
        assertThat(r.listenerSpans()).isEqualTo(5_000);
        assertThat(r.spans()).as("a publish and a process span per frame").isEqualTo(10_000);
    }
}

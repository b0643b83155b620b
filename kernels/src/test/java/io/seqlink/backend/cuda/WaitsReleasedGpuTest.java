package io.seqlink.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.Backends;
import io.seqlink.backend.MappedBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A stream wait on pinned host memory enqueued after the backend released the pending ones, while a call that waits for
 * the context's queued work runs (a consumer's poller arming its next round while a producer thread loads its kernel
 * module): the wait must not hold the call. Without the release on enqueue the context synchronisation below never
 * returned (the GPU suite hung in {@code ArmedRoundsGpuTest}'s racing case when the poller armed in that window).
 */
@Tag("gpu")
class WaitsReleasedGpuTest {

    @Test
    void aWaitEnqueuedWhileACallAwaitsQueuedWorkDoesNotHoldIt() throws Exception {
        BackendProvider p = Backends.cudaProvider();
        assumeTrue(p != null && p.detect().usable(), "no usable CUDA driver");
        try (CudaBackend backend = (CudaBackend) p.open()) {
            CudaDevice device = backend.device(0);
            CudaStream stream = (CudaStream) device.newStream("armed-in-the-window");
            MappedBuffer word = device.allocateMapped(64);
            CompletableFuture<Void> call = CompletableFuture.runAsync(() -> backend.withWaitsReleased(device.context(), () -> {
                stream.waitValueAtLeast(word, 0, 1); // nothing else raises the word: only the backend can end this wait
                device.context().synchronize();
                return null;
            }));
            boolean returned;
            try {
                call.get(20, TimeUnit.SECONDS);
                returned = true;
            } catch (TimeoutException held) {
                returned = false;
            } finally {
                word.raiseTo(0, 1); // a failing run's wait ends here, so the synchronisation and the close return
            }
            call.get(20, TimeUnit.SECONDS);
            assertThat(returned).as("the context synchronisation returned while the wait was pending").isTrue();
            assertThat(stream.waitsReleasedByBackend()).as("the backend released the wait").isEqualTo(1);
        }
    }
}

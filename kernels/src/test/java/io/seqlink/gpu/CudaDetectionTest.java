package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.BackendUnavailableException;
import io.seqlink.backend.Backends;
import io.seqlink.backend.DriverDetection;
import io.seqlink.backend.emulated.EmulatedBackendProvider;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Driver detection on any host: it never throws, it is made once per JVM whatever the number of
 * provider instances, and without a driver it keeps the first cause and {@code auto} falls back to
 * the emulated backend. (On a GPU host the same test sees a usable driver.)
 */
class CudaDetectionTest {

    @Test
    void detectionNeverThrowsAndIsMadeOncePerJvm() {
        BackendProvider a = Backends.cudaProvider();
        BackendProvider b = Backends.cudaProvider();
        assertThat(a).as("the CUDA provider loads by name (JCuda is on the test classpath)").isNotNull();
        DriverDetection first = a.detect();
        DriverDetection second = b.detect();
        assertThat(second).isSameAs(first);
        assertThat(first.summary()).isNotBlank();
        if (first.usable()) {
            assertThat(first.deviceCount()).isPositive();
            assertThat(first.cause()).isNull();
        } else {
            assertThat(first.deviceCount()).isZero();
        }
    }

    @Test
    void withoutADriverTheFirstCauseIsKeptAndAutoFallsBack() {
        BackendProvider provider = Backends.cudaProvider();
        DriverDetection d = provider.detect();
        if (d.usable()) {
            return; // a GPU host: GpuSuite covers the other side
        }
        if (d.cause() != null) {
            // the first failure (UnsatisfiedLinkError without libcuda.so.1), not the NoClassDefFoundError of later calls
            assertThat(d.cause()).isNotInstanceOf(NoClassDefFoundError.class);
        }
        assertThatThrownBy(provider::open).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(d.summary());
        Backends.Choice choice = Backends.open(BackendSelection.AUTO, List.of(new EmulatedBackendProvider(EmulatedTopology.allNvlink(1))));
        try {
            assertThat(choice.backend().kind()).isEqualTo(BackendKind.EMULATED);
            assertThat(choice.reason()).contains("no usable CUDA driver");
            assertThat(choice.detail()).isEqualTo(d.summary());
            assertThat(choice.cause()).isSameAs(d.cause());
        } finally {
            choice.backend().close();
        }
    }
}

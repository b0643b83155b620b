package io.seqlink.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.emulated.EmulatedBackendProvider;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The backend SPI: providers come from the class path's service file or from the caller, a given
 * provider wins over the class path's of its kind, and {@code auto} falls back with one calm reason
 * while keeping the whole finding and its cause.
 */
class BackendsTest {

    @Test
    void theClassPathOffersTheCudaAndTheEmulatedProvider() {
        assertThat(Backends.discovered()).extracting(BackendProvider::kind)
                .containsExactly(BackendKind.CUDA, BackendKind.EMULATED);
        assertThat(Backends.cudaProvider()).isNotNull().extracting(BackendProvider::kind).isEqualTo(BackendKind.CUDA);
    }

    @Test
    void emulatedOpensTheClassPathsProviderWhenNoneIsGiven() {
        try (Backend backend = Backends.open(BackendSelection.EMULATED).backend()) {
            assertThat(backend.kind()).isEqualTo(BackendKind.EMULATED);
            assertThat(backend.deviceCount()).isEqualTo(2);
        }
    }

    @Test
    void aGivenProviderWinsOverTheClassPathsOfItsKind() {
        Backends.Choice choice = Backends.open(BackendSelection.EMULATED,
                List.of(new EmulatedBackendProvider(EmulatedTopology.allNvlink(5))));
        try (Backend backend = choice.backend()) {
            assertThat(backend.deviceCount()).isEqualTo(5);
            assertThat(choice.reason()).isEqualTo("the emulated backend was chosen");
            assertThat(choice.cause()).isNull();
        }
    }

    @Test
    void autoTakesAUsableCudaProvider() {
        FakeCuda cuda = new FakeCuda(new DriverDetection(true, "CUDA driver 13.0, 3 device(s)", 3, null),
                () -> new io.seqlink.backend.emulated.EmulatedBackend(EmulatedTopology.allNvlink(3)));
        Backends.Choice choice = Backends.open(BackendSelection.AUTO, List.of(cuda, emulated()));
        try (Backend backend = choice.backend()) {
            assertThat(backend.deviceCount()).isEqualTo(3);
            assertThat(choice.reason()).isEqualTo("CUDA driver 13.0, 3 device(s)");
            assertThat(choice.cause()).isNull();
        }
    }

    @Test
    void autoWithoutADriverLibraryFallsBackWithACalmReasonAndKeepsTheCause() {
        UnsatisfiedLinkError loader = new UnsatisfiedLinkError("Error while loading native library \"JCudaDriver-12.6.0\":\n"
                + "libcuda.so.1: cannot open shared object file: No such file or directory\n\tat jcuda.LibUtils.loadLibrary");
        FakeCuda cuda = new FakeCuda(DriverDetection.unusable("the CUDA driver library could not be loaded ("
                + "UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file)", loader), () -> {
                    throw new AssertionError("an unusable driver is never opened");
                });
        Backends.Choice choice = Backends.open(BackendSelection.AUTO, List.of(cuda, emulated()));
        try (Backend backend = choice.backend()) {
            assertThat(backend.kind()).isEqualTo(BackendKind.EMULATED);
            assertThat(choice.reason()).startsWith("no usable CUDA driver").contains("libcuda.so.1")
                    .doesNotContain("UnsatisfiedLinkError", "cannot open shared object file", "\n");
            assertThat(choice.detail()).contains("UnsatisfiedLinkError");
            assertThat(choice.cause()).isSameAs(loader);
        }
    }

    @Test
    void autoWithADriverThatAnswersWithoutDevicesSaysWhatItFound() {
        FakeCuda cuda = new FakeCuda(DriverDetection.unusable("cuInit failed with CUDA_ERROR_NO_DEVICE", null), () -> {
            throw new AssertionError("an unusable driver is never opened");
        });
        Backends.Choice choice = Backends.open(BackendSelection.AUTO, List.of(cuda, emulated()));
        try (Backend backend = choice.backend()) {
            assertThat(backend.kind()).isEqualTo(BackendKind.EMULATED);
            assertThat(choice.reason()).isEqualTo("no usable CUDA driver (cuInit failed with CUDA_ERROR_NO_DEVICE)");
        }
    }

    @Test
    void autoFallsBackWhenAnAnsweringDriversBackendFailsToOpenAndKeepsTheFailure() {
        BackendUnavailableException failure = new BackendUnavailableException("fat binary does not load", null);
        FakeCuda cuda = new FakeCuda(new DriverDetection(true, "CUDA driver 13.0, 1 device(s)", 1, null), () -> {
            throw failure;
        });
        Backends.Choice choice = Backends.open(BackendSelection.AUTO, List.of(cuda, emulated()));
        try (Backend backend = choice.backend()) {
            assertThat(backend.kind()).isEqualTo(BackendKind.EMULATED);
            assertThat(choice.reason()).contains("failed to open").contains("fat binary does not load");
            assertThat(choice.cause()).isSameAs(failure);
        }
    }

    @Test
    void cudaWithoutADriverFailsNamingTheFix() {
        FakeCuda cuda = new FakeCuda(DriverDetection.unusable("cuInit failed with CUDA_ERROR_NO_DEVICE", null), () -> {
            throw new AssertionError("an unusable driver is never opened");
        });
        assertThatThrownBy(() -> Backends.open(BackendSelection.CUDA, List.of(cuda)))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("the CUDA backend was chosen (seqlink.backend=cuda), but there is no usable CUDA driver")
                .hasMessageContaining("nvidia-smi").hasMessageContaining("set seqlink.backend=auto")
                .hasMessageContaining("seqlink.backend=emulated").hasMessageContaining("BackendSelection.AUTO or EMULATED")
                .satisfies(e -> assertThat(((BackendUnavailableException) e).problem()).doesNotContain("BackendSelection"));
    }

    private static EmulatedBackendProvider emulated() {
        return new EmulatedBackendProvider(EmulatedTopology.allNvlink(1));
    }

    /** A CUDA provider with a fixed detection; what it opens is up to the test. */
    private record FakeCuda(DriverDetection detection, Supplier<Backend> opener) implements BackendProvider {

        @Override
        public BackendKind kind() {
            return BackendKind.CUDA;
        }

        @Override
        public DriverDetection detect() {
            return detection;
        }

        @Override
        public Backend open() {
            return opener.get();
        }
    }
}

package io.seqlink.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import org.junit.jupiter.api.Test;

/**
 * The emulated backend refuses a stream copy or word write outside an allocation at the call, as the
 * CUDA backend does ({@code IndexOutOfBoundsException}, nothing enqueued), and the device stays usable.
 * Checked only when the command ran, the range's failure would become a sticky
 * {@code CUDA_ERROR_LAUNCH_FAILED} that fails every channel on the device.
 */
class EmulatedStreamBoundsParityTest {

    @Test
    void anOutOfBoundsCopyIsRefusedAtTheCallWithIndexOutOfBoundsAndTheDeviceStaysUsable() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            Device device = backend.device(0);
            MappedBuffer src = device.allocateMapped(256);
            MappedBuffer dst = device.allocateMapped(128);
            DeviceStream stream = device.newStream("bounds");
            assertThatThrownBy(() -> stream.copy(src, 0, dst, 0, 129)).isInstanceOf(IndexOutOfBoundsException.class);
            // the device and the stream still work: an in-bounds copy goes through
            src.setPlain(0, 42);
            stream.copy(src, 0, dst, 0, 128);
            stream.synchronize();
            assertThat(dst.getPlain(0)).isEqualTo(42);
            assertThat(device.newStream("another")).isNotNull();
        }
    }

    @Test
    void anOutOfBoundsWordWriteIsRefusedAtTheCallWithIndexOutOfBoundsAndTheDeviceStaysUsable() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            Device device = backend.device(0);
            MappedBuffer dst = device.allocateMapped(128);
            DeviceStream stream = device.newStream("bounds");
            assertThatThrownBy(() -> stream.writeValue(dst, 128, 1L)).isInstanceOf(IndexOutOfBoundsException.class);
            stream.writeValue(dst, 0, 7L);
            stream.synchronize();
            assertThat(dst.getPlain(0)).isEqualTo(7);
        }
    }
}

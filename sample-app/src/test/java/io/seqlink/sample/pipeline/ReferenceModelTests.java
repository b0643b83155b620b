package io.seqlink.sample.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedTopology;
import org.junit.jupiter.api.Test;

/**
 * The collector's host reference computes exactly the bits the device kernels do: the same pattern,
 * normalisation, weights, matrix-vector product and checksums, run here through the sample's kernel
 * module on the emulated backend (the Java twins; the CUDA kernels are held to the same bits by the
 * comparator's sanitize checks and, on a GPU, by the collector itself, which compares every result).
 */
class ReferenceModelTests {

    @Test
    void hostReferenceMatchesTheDeviceKernelsBitForBit() {
        int pixels = 1024;
        int classes = 16;
        long seed = 12345;
        ReferenceModel model = new ReferenceModel(pixels, classes, 0.5f, 0.25f, 7);
        ReferenceModel.Scratch ref = model.newScratch();
        ref.compute(seed);
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(1)).open()) {
            Device d = rt.backend().device(0);
            try (DeviceStream s = d.newStream("reference-test");
                 DeviceBuffer image = d.allocate(pixels);
                 DeviceBuffer x = d.allocate(4L * pixels);
                 DeviceBuffer rawWeights = d.allocate((long) pixels * classes);
                 DeviceBuffer weights = d.allocate(4L * pixels * classes);
                 DeviceBuffer y = d.allocate(128); // whole 128-byte lines, as the sample allocates
                 MappedBuffer out = d.allocateMapped(256)) {
                SampleWork w = new SampleWork(s);
                w.fillPattern(rawWeights, 0, (long) pixels * classes, 7);
                w.normalize(rawWeights, 0, weights, 0, pixels * classes, ReferenceModel.WEIGHT_MEAN, ReferenceModel.WEIGHT_STD);
                w.fillPattern(image, 0, pixels, seed);
                w.normalize(image, 0, x, 0, pixels, 0.5f, 0.25f);
                w.matvec(weights, 0, x, 0, y, 0, classes, pixels);
                w.checksum(x, 0, 4L * pixels, out, 4L * classes);
                w.checksum(y, 0, 4L * classes, out, 4L * classes + 8);
                s.copy(y, 0, out, 0, 4L * classes);
                s.synchronize();
                for (int r = 0; r < classes; r++) {
                    assertThat(out.byteBuffer().duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(4 * r))
                            .as("output %d", r).isEqualTo(ref.outputBits(r));
                }
                assertThat(out.getPlain(4L * classes)).isEqualTo(ref.inputChecksum());
                assertThat(out.getPlain(4L * classes + 8)).isEqualTo(ref.outputChecksum());
            }
        }
        assertThat(ref.output(0)).isFinite();
    }
}

package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The workload kernels compute exactly what the Java definitions compute: pattern fill and checksum
 * equal {@link FramePattern} bit for bit (aligned and unaligned, one block and many), normalize and
 * matvec equal the emulated backend's float arithmetic bit for bit.
 */
@Tag("gpu")
class CudaWorkloadsGpuTest {

    private static Backend backend;
    private static DeviceStream stream;

    @BeforeAll
    static void open() {
        backend = Gpu.openBackend();
        stream = backend.device(0).newStream("workloads-test");
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    private static final int[] LENGTHS = {1, 7, 8, 9, 63, 64, 65, 1000, 4096, 16389, 65536 + 3, 1 << 20, (3 << 20) + 5};

    @Test
    void fillPatternWritesFramePatternsBytes() {
        try (DeviceBuffer dev = backend.device(0).allocate((4 << 20) + 64);
             MappedBuffer host = backend.device(0).allocateMapped((4 << 20) + 64)) {
            for (int len : LENGTHS) {
                for (int offset : new int[] {0, 3}) {
                    long seed = 0xC0FFEEL * len + offset;
                    stream.workloads().fillPattern(dev, offset, len, seed);
                    stream.copy(dev, 0, host, 0, len + offset);
                    stream.synchronize();
                    ByteBuffer expected = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
                    FramePattern.fill(expected, 0, len, seed);
                    ByteBuffer got = host.byteBuffer().slice(offset, len);
                    assertThat(got.equals(expected)).as("fill of %d bytes at offset %d", len, offset).isTrue();
                }
            }
        }
    }

    @Test
    void checksumEqualsFramePatternOnArbitraryBytes() {
        SplittableRandom random = new SplittableRandom(42);
        try (DeviceBuffer dev = backend.device(0).allocate((4 << 20) + 64);
             MappedBuffer host = backend.device(0).allocateMapped((4 << 20) + 64);
             MappedBuffer out = backend.device(0).allocateMapped(4096)) {
            ByteBuffer hb = host.byteBuffer();
            for (int i = 0; i < hb.capacity(); i++) {
                hb.put(i, (byte) random.nextInt());
            }
            stream.copy(host, 0, dev, 0, hb.capacity());
            int k = 0;
            for (int len : LENGTHS) {
                for (int offset : new int[] {0, 5, 8}) {
                    stream.workloads().checksum(dev, offset, len, out, 8L * k);
                    stream.synchronize();
                    assertThat(out.getAcquire(8L * k)).as("checksum of %d bytes at offset %d", len, offset)
                            .isEqualTo(FramePattern.checksum(hb, offset, len));
                    k++;
                }
            }
            // the pattern's checksum, as frames are checked
            stream.workloads().fillPattern(dev, 0, 16384, 77);
            stream.workloads().checksum(dev, 0, 16384, out, 0);
            stream.synchronize();
            assertThat(out.getAcquire(0)).isEqualTo(FramePattern.expectedChecksum(77, 16384));
        }
    }

    @Test
    void normalizeAndMatvecEqualTheEmulatedBackendBitForBit() {
        int count = 3000;
        int rows = 67;
        int cols = 129;
        SplittableRandom random = new SplittableRandom(7);
        byte[] pixels = new byte[count];
        random.nextBytes(pixels);
        float[] w = new float[rows * cols];
        float[] x = new float[cols];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (random.nextDouble() * 4 - 2);
        }
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (random.nextDouble() * 2 - 1);
        }
        ByteBuffer cudaOut = run(backend, pixels, w, x, count, rows, cols);
        try (EmulatedBackend emulated = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            ByteBuffer javaOut = run(emulated, pixels, w, x, count, rows, cols);
            for (int i = 0; i < 4 * (count + rows); i += 4) {
                assertThat(cudaOut.getInt(i)).as("float at byte %d (%s vs %s)", i, Float.intBitsToFloat(cudaOut.getInt(i)),
                        Float.intBitsToFloat(javaOut.getInt(i))).isEqualTo(javaOut.getInt(i));
            }
        }
    }

    /** Runs normalize and matvec on {@code b}'s device 0; returns [normalized | y] as bytes. */
    private static ByteBuffer run(Backend b, byte[] pixels, float[] w, float[] x, int count, int rows, int cols) {
        try (MappedBuffer in = b.device(0).allocateMapped(4L * (count + w.length + x.length) + 4096);
             DeviceBuffer dev = b.device(0).allocate(4L * (count + w.length + x.length + count + rows) + 4096);
             MappedBuffer out = b.device(0).allocateMapped(4L * (count + rows) + 128);
             DeviceStream s = b.device(0).newStream("workloads-compare")) {
            ByteBuffer ib = in.byteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            ib.put(0, pixels);
            long wAt = 4L * count;
            long xAt = wAt + 4L * w.length;
            long normAt = xAt + 4L * x.length;
            long yAt = normAt + 4L * count;
            for (int i = 0; i < w.length; i++) {
                ib.putFloat((int) wAt + 4 * i, w[i]);
            }
            for (int i = 0; i < x.length; i++) {
                ib.putFloat((int) xAt + 4 * i, x[i]);
            }
            s.copy(in, 0, dev, 0, normAt);
            s.workloads().normalize(dev, 0, dev, normAt, count, 0.485f, 0.229f);
            s.workloads().matvec(dev, wAt, dev, xAt, dev, yAt, rows, cols);
            s.copy(dev, normAt, out, 0, 4L * (count + rows));
            s.synchronize();
            ByteBuffer copy = ByteBuffer.allocate(4 * (count + rows)).order(ByteOrder.LITTLE_ENDIAN);
            copy.put(0, out.byteBuffer(), 0, 4 * (count + rows));
            return copy;
        }
    }
}

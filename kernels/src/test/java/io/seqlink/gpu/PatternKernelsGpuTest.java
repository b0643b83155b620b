package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The pattern kernels, launched through the user-kernel API from the tests' own module, compute exactly
 * what {@link FramePattern} computes, bit for bit: aligned and unaligned, one block and many, 16-byte
 * and byte paths.
 */
@Tag("gpu")
class PatternKernelsGpuTest {

    private static Backend backend;
    private static DeviceStream stream;
    private static PatternKernels pattern;

    @BeforeAll
    static void open() {
        backend = Gpu.openBackend();
        stream = backend.device(0).newStream("pattern-test");
        pattern = PatternKernels.on(stream, TestKernels.MODULE);
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
                for (int offset : new int[] {0, 3, 16}) {
                    long seed = 0xC0FFEEL * len + offset;
                    pattern.fill(dev, offset, len, seed);
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
                    pattern.checksum(dev, offset, len, out, 8L * k);
                    stream.synchronize();
                    assertThat(out.getAcquire(8L * k)).as("checksum of %d bytes at offset %d", len, offset)
                            .isEqualTo(FramePattern.checksum(hb, offset, len));
                    k++;
                }
            }
            // the pattern's checksum, as frames are checked
            pattern.fill(dev, 0, 16384, 77);
            pattern.checksum(dev, 0, 16384, out, 0);
            stream.synchronize();
            assertThat(out.getAcquire(0)).isEqualTo(FramePattern.expectedChecksum(77, 16384));
        }
    }
}

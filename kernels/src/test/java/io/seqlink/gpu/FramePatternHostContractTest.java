package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.FramePattern;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pattern and checksum code the kernels compile (seqlink_pattern.cuh, shared with the host check)
 * computes FramePattern's bits: for seeds at the edges of the 64-bit range and lengths around every
 * word boundary, and for bytes that are not the pattern. No GPU needed; the GPU suite checks the
 * kernels themselves.
 */
class FramePatternHostContractTest {

    @Test
    void patternChecksumsMatchFramePattern() throws Exception {
        List<String> lines = HostCheck.lines();
        int compared = 0;
        for (String line : lines) {
            String[] f = line.trim().split(" ");
            if (!f[0].equals("pattern")) {
                continue;
            }
            long seed = Long.parseUnsignedLong(f[1]);
            int length = Integer.parseInt(f[2]);
            long cuda = Long.parseUnsignedLong(f[3]);
            ByteBuffer buf = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            FramePattern.fill(buf, 0, length, seed);
            assertThat(cuda).as("checksum of the pattern for seed %s, %d bytes", Long.toUnsignedString(seed), length)
                    .isEqualTo(FramePattern.checksum(buf, 0, length))
                    .isEqualTo(FramePattern.expectedChecksum(seed, length));
            compared++;
        }
        assertThat(compared).isGreaterThan(50);
    }

    @Test
    void checksumsOfArbitraryBytesMatchFramePattern() throws Exception {
        int compared = 0;
        for (String line : HostCheck.lines()) {
            String[] f = line.trim().split(" ");
            if (!f[0].equals("bytes")) {
                continue;
            }
            int length = Integer.parseInt(f[1]);
            ByteBuffer buf = ByteBuffer.allocate(length);
            for (int i = 0; i < length; i++) {
                buf.put(i, (byte) ((i * 31 + 7) & 0xFF));
            }
            assertThat(Long.parseUnsignedLong(f[2])).as("checksum of %d arbitrary bytes", length)
                    .isEqualTo(FramePattern.checksum(buf, 0, length));
            compared++;
        }
        assertThat(compared).isGreaterThan(10);
    }
}

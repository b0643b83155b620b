package io.seqlink.backend;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The deterministic frame pattern and the checksum that tests, benchmarks and the sample use to prove
 * frames arrive intact. Both are defined on little-endian 64-bit words so a GPU computes them in
 * parallel with the same result:
 * <ul>
 *   <li>pattern: word {@code k} of the pattern for {@code seed} is {@code mix(seed + k)};</li>
 *   <li>checksum: {@code mix(length ^ XOR_k mix(word_k + k * GOLDEN))}, the last partial word zero-padded.</li>
 * </ul>
 * {@code mix} is the SplitMix64 finaliser.
 */
public final class FramePattern {

    public static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private FramePattern() {
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Writes the pattern for {@code seed} into {@code buf[index .. index + length)} (absolute; position untouched). */
    public static void fill(ByteBuffer buf, int index, int length, long seed) {
        ByteBuffer le = buf.order() == ByteOrder.LITTLE_ENDIAN ? buf : buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int words = length >>> 3;
        for (int k = 0; k < words; k++) {
            le.putLong(index + (k << 3), mix(seed + k));
        }
        long last = mix(seed + words);
        for (int i = words << 3; i < length; i++) {
            le.put(index + i, (byte) (last >>> ((i & 7) << 3)));
        }
    }

    /** The checksum of {@code buf[index .. index + length)} (absolute; position untouched). */
    public static long checksum(ByteBuffer buf, int index, int length) {
        ByteBuffer le = buf.order() == ByteOrder.LITTLE_ENDIAN ? buf : buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int words = length >>> 3;
        long acc = 0;
        for (int k = 0; k < words; k++) {
            acc ^= mix(le.getLong(index + (k << 3)) + k * GOLDEN);
        }
        if ((length & 7) != 0) {
            long tail = 0;
            for (int i = words << 3; i < length; i++) {
                tail |= (le.get(index + i) & 0xFFL) << ((i & 7) << 3);
            }
            acc ^= mix(tail + words * GOLDEN);
        }
        return mix(acc ^ length);
    }

    /** The checksum of the pattern for {@code seed} of {@code length} bytes, computed without a buffer. */
    public static long expectedChecksum(long seed, int length) {
        int words = length >>> 3;
        long acc = 0;
        for (int k = 0; k < words; k++) {
            acc ^= mix(mix(seed + k) + k * GOLDEN);
        }
        if ((length & 7) != 0) {
            long mask = (1L << ((length & 7) << 3)) - 1;
            acc ^= mix((mix(seed + words) & mask) + words * GOLDEN);
        }
        return mix(acc ^ length);
    }
}

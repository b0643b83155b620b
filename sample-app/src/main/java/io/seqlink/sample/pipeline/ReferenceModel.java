package io.seqlink.sample.pipeline;

import io.seqlink.backend.FramePattern;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The pipeline's arithmetic on the host, bit for bit what the devices compute (the CUDA kernels round
 * every step as Java's float arithmetic does, and the emulated backend is Java): the synthetic image
 * of a seed, its normalisation, and {@code y = W x}. The collector uses it to check results end to end.
 *
 * <p>Weights are shared and immutable; an instance's scratch buffers are not thread-safe, so each
 * verifying thread takes its own {@link #newScratch() scratch}.
 */
public final class ReferenceModel {

    /** Weights are a normalised pattern too: small values of both signs, exactly representable sums. */
    public static final float WEIGHT_MEAN = 0.5f;
    public static final float WEIGHT_STD = 8f;

    private final int pixels;
    private final int classes;
    private final float mean;
    private final float std;
    private final float[] weights;

    public ReferenceModel(int pixels, int classes, float mean, float std, long weightSeed) {
        this.pixels = pixels;
        this.classes = classes;
        this.mean = mean;
        this.std = std;
        this.weights = new float[classes * pixels];
        ByteBuffer raw = ByteBuffer.allocate(weights.length).order(ByteOrder.LITTLE_ENDIAN);
        FramePattern.fill(raw, 0, weights.length, weightSeed);
        for (int i = 0; i < weights.length; i++) {
            weights[i] = normalize(raw.get(i), WEIGHT_MEAN, WEIGHT_STD);
        }
    }

    /** The normalise kernel's arithmetic for one 8-bit value. */
    public static float normalize(byte pixel, float mean, float std) {
        return ((pixel & 0xFF) / 255f - mean) / std;
    }

    public int pixels() {
        return pixels;
    }

    public int classes() {
        return classes;
    }

    public Scratch newScratch() {
        return new Scratch();
    }

    /** Per-thread buffers: nothing is allocated per frame. */
    public final class Scratch {
        private final ByteBuffer image = ByteBuffer.allocate(pixels).order(ByteOrder.LITTLE_ENDIAN);
        private final ByteBuffer x = ByteBuffer.allocate(4 * pixels).order(ByteOrder.LITTLE_ENDIAN);
        private final ByteBuffer y = ByteBuffer.allocate(4 * classes).order(ByteOrder.LITTLE_ENDIAN);

        /**
         * Computes the frame of {@code seed} and its inference; afterwards {@link #inputChecksum()} and
         * {@link #outputChecksum()} and {@link #output(int)} describe them.
         */
        public void compute(long seed) {
            FramePattern.fill(image, 0, pixels, seed);
            for (int i = 0; i < pixels; i++) {
                x.putFloat(4 * i, normalize(image.get(i), mean, std));
            }
            multiply();
        }

        private void multiply() {
            for (int r = 0; r < classes; r++) {
                float acc = 0f;
                int row = r * pixels;
                for (int k = 0; k < pixels; k++) {
                    acc += weights[row + k] * x.getFloat(4 * k);
                }
                y.putFloat(4 * r, acc);
            }
        }

        /**
         * The normalised image {@link #compute(long)} made, as the frames carry it: {@code 4 * pixels} bytes of float32 at
         * {@code offset} of {@code dst} (little-endian).
         */
        public void writeInput(ByteBuffer dst, int offset) {
            for (int i = 0; i < pixels; i++) {
                dst.putFloat(offset + 4 * i, x.getFloat(4 * i));
            }
        }

        /**
         * The inference of the normalised image at {@code offset} of {@code src} ({@code 4 * pixels} bytes of float32, as a
         * frame carries it), not of a seed: afterwards {@link #inputChecksum()} is that image's, {@link #outputChecksum()}
         * its result's.
         */
        public void inferFrom(ByteBuffer src, int offset) {
            for (int i = 0; i < pixels; i++) {
                x.putFloat(4 * i, src.getFloat(offset + 4 * i));
            }
            multiply();
        }

        public long inputChecksum() {
            return FramePattern.checksum(x, 0, 4 * pixels);
        }

        public long outputChecksum() {
            return FramePattern.checksum(y, 0, 4 * classes);
        }

        /** The raw bits of output {@code row}, to compare without float equality pitfalls (NaN, -0). */
        public int outputBits(int row) {
            return y.getInt(4 * row);
        }

        public float output(int row) {
            return y.getFloat(4 * row);
        }
    }
}

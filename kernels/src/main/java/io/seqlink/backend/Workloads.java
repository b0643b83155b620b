package io.seqlink.backend;

/**
 * Ordinary compute kernels that benchmarks, tests and the sample pipeline run on channel frames, bound
 * to one stream. Each has a CUDA implementation in {@code seqlink_kernels.cu} and a Java one in the
 * emulated backend computing the same bits ({@link FramePattern} defines them).
 */
public interface Workloads {

    /** Writes {@code length} bytes of {@link FramePattern#fill the pattern for} {@code seed} at {@code dst + offset}. */
    void fillPattern(Memory dst, long offset, long length, long seed);

    /** Writes {@link FramePattern#checksum the checksum} of {@code length} bytes at {@code src + offset} into the word at {@code out + outOffset}. */
    void checksum(Memory src, long offset, long length, Memory out, long outOffset);

    /**
     * Normalises {@code count} unsigned 8-bit pixels at {@code src} into float32 at {@code dst}:
     * {@code (p / 255 - mean) / std}.
     */
    void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std);

    /**
     * Multiplies the row-major {@code rows x cols} float32 matrix at {@code weights} by the float32
     * vector at {@code x}, writing {@code rows} float32 results at {@code y}.
     */
    void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows, int cols);
}

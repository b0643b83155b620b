package io.seqlink.backend.cuda;

import io.seqlink.backend.Memory;
import io.seqlink.backend.Workloads;

/**
 * The workload kernels on one stream, each with its own parameter block (bound on first use).
 * {@code fillPattern} and {@code checksum} compute {@link io.seqlink.backend.FramePattern}'s bits;
 * {@code normalize} and {@code matvec} round every step like the emulated backend's Java.
 */
final class CudaWorkloads implements Workloads {

    /** Words of pattern each fill thread writes before another block is added. */
    private static final long WORDS_PER_THREAD = 4;

    private final CudaStream stream;
    private final int maxBlocks;
    private KernelLaunch fill;
    private KernelLaunch checksum;
    private CudaDeviceBuffer checksumScratch;
    private KernelLaunch normalize;
    private KernelLaunch matvec;

    CudaWorkloads(CudaStream stream) {
        this.stream = stream;
        this.maxBlocks = 4 * stream.context().multiprocessors();
        stream.onClose(this::release);
    }

    private synchronized void release() {
        for (KernelLaunch k : new KernelLaunch[] {fill, checksum, normalize, matvec}) {
            if (k != null) {
                k.release();
            }
        }
        if (checksumScratch != null) {
            checksumScratch.close();
        }
    }

    private int blocksFor(long units, long unitsPerBlock) {
        return (int) Math.max(1, Math.min(maxBlocks, (units + unitsPerBlock - 1) / unitsPerBlock));
    }

    @Override
    public synchronized void fillPattern(Memory dst, long offset, long length, long seed) {
        stream.checkOpen();
        long d = stream.backend().own(dst, "dst").at(offset, length, "fillPattern dst");
        if (length == 0) {
            return;
        }
        if (fill == null) {
            fill = new KernelLaunch(stream.context(), "seqlink_fill_pattern", 8, 8, 8);
        }
        fill.params.putLong(0, d);
        fill.params.putLong(1, length);
        fill.params.putLong(2, seed);
        fill.launch(stream.handle(), blocksFor(length >>> 3, KernelArgs.BLOCK_THREADS * WORDS_PER_THREAD), KernelArgs.BLOCK_THREADS);
    }

    @Override
    public synchronized void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        stream.checkOpen();
        long s = stream.backend().own(src, "src").at(offset, length, "checksum src");
        if ((outOffset & 7) != 0) {
            throw new IllegalArgumentException("outOffset must be a multiple of 8 (the checksum is a 64-bit word), was " + outOffset);
        }
        long o = stream.backend().own(out, "out").at(outOffset, 8, "checksum out");
        if (checksum == null) {
            checksum = new KernelLaunch(stream.context(), "seqlink_checksum", 8, 8, 8, 8);
            checksumScratch = (CudaDeviceBuffer) stream.cudaDevice().allocate(KernelArgs.SCRATCH_BYTES);
            checksum.params.putLong(3, checksumScratch.address());
        }
        checksum.params.putLong(0, s);
        checksum.params.putLong(1, length);
        checksum.params.putLong(2, o);
        checksum.launch(stream.handle(), blocksFor(length, KernelArgs.BYTES_PER_BLOCK * 2), KernelArgs.BLOCK_THREADS);
    }

    @Override
    public synchronized void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        stream.checkOpen();
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        long s = stream.backend().own(src, "src").at(srcOffset, count, "normalize src");
        long d = stream.backend().own(dst, "dst").at(dstOffset, 4L * count, "normalize dst");
        if (count == 0) {
            return;
        }
        if (normalize == null) {
            normalize = new KernelLaunch(stream.context(), "seqlink_normalize", 8, 8, 4, 4, 4);
        }
        normalize.params.putLong(0, s);
        normalize.params.putLong(1, d);
        normalize.params.putInt(2, count);
        normalize.params.putFloat(3, mean);
        normalize.params.putFloat(4, std);
        normalize.launch(stream.handle(), blocksFor(count, KernelArgs.BLOCK_THREADS * 4L), KernelArgs.BLOCK_THREADS);
    }

    @Override
    public synchronized void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset,
            int rows, int cols) {
        stream.checkOpen();
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("rows and cols must not be negative, were " + rows + " x " + cols);
        }
        long w = stream.backend().own(weights, "weights").at(weightsOffset, 4L * rows * cols, "matvec weights");
        long xv = stream.backend().own(x, "x").at(xOffset, 4L * cols, "matvec x");
        long yv = stream.backend().own(y, "y").at(yOffset, 4L * rows, "matvec y");
        if (rows == 0) {
            return;
        }
        if (matvec == null) {
            matvec = new KernelLaunch(stream.context(), "seqlink_matvec", 8, 8, 8, 4, 4);
        }
        matvec.params.putLong(0, w);
        matvec.params.putLong(1, xv);
        matvec.params.putLong(2, yv);
        matvec.params.putInt(3, rows);
        matvec.params.putInt(4, cols);
        matvec.launch(stream.handle(), blocksFor(rows, 128), 128);
    }
}

package io.seqlink.backend.emulated;

import io.seqlink.backend.FramePattern;
import io.seqlink.backend.Memory;
import io.seqlink.backend.Workloads;

/** The workload kernels in Java, computing the same bits as the CUDA ones. */
final class EmulatedWorkloads implements Workloads {

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedStream.Task fill;
    private final EmulatedStream.Task checksum;
    private final EmulatedStream.Task normalize;
    private final EmulatedStream.Task matvec;

    EmulatedWorkloads(EmulatedStream stream) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.fill = c -> {
            device.beforeLaunch("seqlink_fill_pattern");
            EmulatedMemory dst = (EmulatedMemory) c.r0;
            device.access(dst, "seqlink_fill_pattern");
            FramePattern.fill(dst.buffer, dst.index(c.a, c.b), (int) c.b, c.c);
        };
        this.checksum = c -> {
            device.beforeLaunch("seqlink_checksum");
            EmulatedMemory src = (EmulatedMemory) c.r0;
            EmulatedMemory out = (EmulatedMemory) c.r1;
            device.access(src, "seqlink_checksum");
            device.access(out, "seqlink_checksum");
            out.setPlainWord(c.c, FramePattern.checksum(src.buffer, src.index(c.a, c.b), (int) c.b));
        };
        this.normalize = c -> {
            device.beforeLaunch("seqlink_normalize");
            EmulatedMemory src = (EmulatedMemory) c.r0;
            EmulatedMemory dst = (EmulatedMemory) c.r1;
            int count = (int) c.c;
            float mean = Float.intBitsToFloat((int) c.d);
            float std = Float.intBitsToFloat((int) c.e);
            int s = src.index(c.a, count);
            int d = dst.index(c.b, 4L * count);
            for (int i = 0; i < count; i++) {
                dst.buffer.putFloat(d + 4 * i, ((src.buffer.get(s + i) & 0xFF) / 255f - mean) / std);
            }
        };
        this.matvec = c -> {
            device.beforeLaunch("seqlink_matvec");
            EmulatedMemory w = (EmulatedMemory) c.r0;
            EmulatedMemory x = (EmulatedMemory) c.r1;
            EmulatedMemory y = (EmulatedMemory) c.r2;
            int rows = (int) (c.d >>> 32);
            int cols = (int) c.d;
            int wi = w.index(c.a, 4L * rows * cols);
            int xi = x.index(c.b, 4L * cols);
            int yi = y.index(c.c, 4L * rows);
            for (int r = 0; r < rows; r++) {
                float acc = 0f;
                int row = wi + 4 * r * cols;
                for (int k = 0; k < cols; k++) {
                    acc += w.buffer.getFloat(row + 4 * k) * x.buffer.getFloat(xi + 4 * k);
                }
                y.buffer.putFloat(yi + 4 * r, acc);
            }
        };
    }

    @Override
    public void fillPattern(Memory dst, long offset, long length, long seed) {
        stream.enqueue(fill, device.own(dst), null, null, offset, length, seed, 0, 0, 0);
    }

    @Override
    public void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        stream.enqueue(checksum, device.own(src), device.own(out), null, offset, length, outOffset, 0, 0, 0);
    }

    @Override
    public void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        stream.enqueue(normalize, device.own(src), device.own(dst), null, srcOffset, dstOffset, count,
                Float.floatToRawIntBits(mean), Float.floatToRawIntBits(std), 0);
    }

    @Override
    public void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows, int cols) {
        stream.enqueue(matvec, device.own(weights), device.own(x), device.own(y), weightsOffset, xOffset, yOffset,
                ((long) rows << 32) | (cols & 0xFFFFFFFFL), 0, 0);
    }
}

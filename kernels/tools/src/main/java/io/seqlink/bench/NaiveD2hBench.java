package io.seqlink.bench;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.report.LatencyHistogram;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jspecify.annotations.Nullable;

/**
 * The Java twins of {@code seqlink-cycle-bench --mode host}'s naive rows, the same steps through the backend SPI
 * on one stream of the producer device (so they run on the emulated backend too), with the host rows' checks
 * ({@link FrameLog} as the frame lands, {@link ChecksumSample} after its time is taken):
 * <ul>
 *   <li>{@code naive-d2h}: the fill kernel, {@link DeviceStream#copy} into pinned host memory ({@code cuMemcpyAsync}
 *       D2H), {@link DeviceStream#synchronize}; the host then checks the first and last word. One frame in flight,
 *       each in the next of the ring's slots.</li>
 *   <li>{@code naive-d2h-pipelined}: per frame the fill, the copy and {@link DeviceStream#writeValue} of the sequence
 *       into a host word ({@code cuStreamWriteValue64}); as many frames in flight as the ring has slots, a slot's next
 *       frame enqueued once the host saw the word pass its last frame and checked it. GB/s until the last frame is
 *       checked; the frames the host ring still holds are checksummed after.</li>
 * </ul>
 * The measuring thread's bytes allocated per timed frame are reported. Runs on the harness thread.
 */
final class NaiveD2hBench {

    private final BenchEnvironment env;

    NaiveD2hBench(BenchEnvironment env) {
        this.env = env;
    }

    Results.CycleRow cycle(long size) {
        int frames = env.framesFor(size);
        int warmup = env.warmupFor(size);
        long total = (long) warmup + frames;
        try (Rig r = new Rig(env, env.slotsFor(size), size)) { // frame after frame through the ring's slots, as the C++ row
            FrameLog log = new FrameLog(size, total);
            ChecksumSample sample = new ChecksumSample(size);
            LatencyHistogram latency = new LatencyHistogram();
            long allocBefore = -1;
            for (long s = 1; s <= total; s++) {
                if (s == warmup + 1) {
                    latency.reset();
                    allocBefore = AllocationMeter.current();
                }
                long t0 = System.nanoTime();
                r.fill(s);
                r.copy(s);
                r.stream.synchronize();
                r.record(log, s);
                latency.record(System.nanoTime() - t0);
                if (s > warmup && sample.wants(s) && log.intact(s)) { // a frame already failed is not counted twice
                    r.verify(sample, s);
                }
            }
            long allocAfter = AllocationMeter.current();
            return new Results.CycleRow(Results.JAVA, "naive-d2h", size, latency.percentiles(), sample.verified(),
                    log.corrupt(1, total) + sample.corrupt(), AllocationMeter.perFrame(allocBefore, allocAfter, frames), Double.NaN);
        }
    }

    Results.ThroughputRow pipelined(long size) {
        int warmup = env.warmupFor(size);
        long total = 4L * env.framesFor(size);
        try (Rig r = new Rig(env, env.slotsFor(size), size)) {
            FrameLog log = new FrameLog(size, warmup + total);
            ChecksumSample sample = new ChecksumSample(size);
            r.pipeline(log, 1, warmup); // JIT and driver warm-up, untimed
            long a0 = AllocationMeter.current();
            long t0 = System.nanoTime();
            r.pipeline(log, warmup + 1, warmup + total);
            long nanos = System.nanoTime() - t0;
            long a1 = AllocationMeter.current();
            long end = warmup + total;
            for (long s = Math.max(warmup + 1, end - r.slots + 1); s <= end; s++) {
                if (sample.affords() && log.intact(s)) {
                    r.verify(sample, s);
                }
            }
            double seconds = nanos / 1e9;
            return new Results.ThroughputRow(Results.JAVA, "naive-d2h-pipelined", size, total, seconds,
                    total * (double) size / seconds / 1e9, sample.verified(), log.corrupt(1, end) + sample.corrupt(),
                    AllocationMeter.perFrame(a0, a1, total), Double.NaN);
        }
    }

    /** A ring of {@code slots} frames on the producer device and one in pinned host memory, a host word, one stream. */
    private static final class Rig implements AutoCloseable {
        final long slots;
        final long size;
        final long stride;
        final DeviceStream stream;
        final PatternKernels work;
        private final DeviceBuffer ring;
        private final MappedBuffer host;
        private final ByteBuffer hostLittleEndian;
        private final MappedBuffer word;
        private final int lastWordOffset;

        Rig(BenchEnvironment env, long slots, long size) {
            Device d = env.backend().device(env.producer());
            this.slots = slots;
            this.size = size;
            this.stride = Alloc.lines(size);
            this.lastWordOffset = (int) (size / 8 - 1) * 8;
            DeviceBuffer ringBuffer = null;
            MappedBuffer hostBuffer = null;
            MappedBuffer wordBuffer = null;
            DeviceStream st = null;
            try {
                ringBuffer = d.allocate(slots * stride);
                hostBuffer = d.allocateMapped(slots * stride);
                wordBuffer = d.allocateMapped(Alloc.lines(8));
                st = d.newStream("bench-naive-d2h");
            } catch (RuntimeException ex) {
                for (@Nullable AutoCloseable c : new @Nullable AutoCloseable[] {st, wordBuffer, hostBuffer, ringBuffer}) {
                    closeQuietly(c);
                }
                throw ex;
            }
            ring = ringBuffer;
            host = hostBuffer;
            word = wordBuffer;
            stream = st;
            hostLittleEndian = host.byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            work = BenchWork.on(stream);
        }

        long offset(long s) {
            return (s - 1) % slots * stride;
        }

        void fill(long s) {
            work.fill(ring, offset(s), size, s);
        }

        void copy(long s) {
            stream.copy(ring, offset(s), host, offset(s), size);
        }

        /** The host's look at frame s, which has landed: its first and last word into the log. */
        void record(FrameLog log, long s) {
            if (log.recorded()) {
                log.record(s, host.getAcquire(offset(s)), host.getAcquire(offset(s) + lastWordOffset));
            }
        }

        void verify(ChecksumSample sample, long s) {
            sample.check(hostLittleEndian, (int) offset(s), s);
        }

        /** Frames first to last back to back: before frame s takes a slot, the host waits for the frame s - slots in it. */
        void pipeline(FrameLog log, long first, long last) {
            for (long s = first; s <= last; s++) {
                if (s - slots >= first) {
                    land(log, s - slots);
                }
                fill(s);
                copy(s);
                stream.writeValue(word, 0, s);
            }
            for (long s = Math.max(first, last - slots + 1); s <= last; s++) {
                land(log, s);
            }
        }

        private void land(FrameLog log, long s) {
            int spins = 0;
            long deadline = 0;
            while (word.getAcquire(0) < s) {
                if ((++spins & 1023) == 0) {
                    stream.completed(); // a device fault surfaces here rather than as a word that never lands
                    long now = System.nanoTime();
                    if (deadline == 0) {
                        deadline = now + Spin.DEFAULT_TIMEOUT_NANOS;
                    } else if (now - deadline > 0) {
                        throw new Spin.StuckException("the host word of the naive pipeline did not reach " + s + " within "
                                + Spin.DEFAULT_TIMEOUT_NANOS / 1_000_000_000 + " s (it is " + word.getAcquire(0) + ")");
                    }
                }
                Thread.onSpinWait();
            }
            record(log, s);
        }

        @Override
        public void close() {
            for (AutoCloseable c : new AutoCloseable[] {stream, word, host, ring}) {
                closeQuietly(c);
            }
        }

        private static void closeQuietly(@Nullable AutoCloseable c) {
            if (c == null) {
                return;
            }
            try {
                c.close();
            } catch (Exception ignored) {
                // a benchmark's stream and memory cannot fail to close in a way worth reporting
            }
        }
    }
}

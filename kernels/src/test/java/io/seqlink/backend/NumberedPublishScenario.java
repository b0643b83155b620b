package io.seqlink.backend;

import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two publish steps bound alike (staged lengths, doorbells, no push targets), one published with the device's
 * numbering ({@link PublishKernel#enqueue(int)}) and one with the caller's ({@link PublishKernel#enqueue(long, int)}),
 * through batches of every size up to {@code max_batch} and over two laps of the ring: after each publish, every word a
 * publish writes is read back from both. Run on the emulated backend by {@code NumberedPublishTest}; a backend that
 * writes a numbered publish its own way runs it on its hardware.
 */
public final class NumberedPublishScenario {

    /** The batches published, in order: every size up to {@link #MAX_BATCH}, then singles over the second lap. */
    public static final int[] COUNTS = {1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 6, 1};
    public static final int MAX_BATCH = 8;
    public static final RingGeometry GEOMETRY = RingGeometry.of(16, 256);

    /** The words of one publish step after publish {@code index}: control, mirror, every header, every doorbell. */
    public record Words(int index, long publishSeq, long writerBusy, long mirror, long[] stamps, long[] lengths, long[] doorbells) {

        @Override
        public boolean equals(Object o) {
            return o instanceof Words w && w.index == index && w.publishSeq == publishSeq && w.writerBusy == writerBusy
                    && w.mirror == mirror && Arrays.equals(w.stamps, stamps) && Arrays.equals(w.lengths, lengths)
                    && Arrays.equals(w.doorbells, doorbells);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(publishSeq) * 31 + index;
        }

        @Override
        public String toString() {
            return "publish " + index + ": publish_seq " + publishSeq + ", writer_busy " + writerBusy + ", mirror " + mirror
                    + ", stamps " + Arrays.toString(stamps) + ", lengths " + Arrays.toString(lengths) + ", doorbells "
                    + Arrays.toString(doorbells);
        }
    }

    /** What each step's words were after every publish: by the device's numbering, and by the caller's. */
    public record Outcome(List<Words> deviceNumbered, List<Words> callerNumbered) {
    }

    private NumberedPublishScenario() {
    }

    /** The length the host stages for frame {@code s}: different per frame, as a commit leaves it. */
    public static long stagedLength(long s) {
        return 100 + 7 * s;
    }

    public static Outcome run(Backend backend) {
        Device gpu = backend.device(0);
        try (Side device = new Side(gpu, "device-numbered"); Side caller = new Side(gpu, "caller-numbered")) {
            List<Words> byDevice = new ArrayList<>();
            List<Words> byCaller = new ArrayList<>();
            long first = 1;
            for (int i = 0; i < COUNTS.length; i++) {
                int count = COUNTS[i];
                for (long s = first; s < first + count; s++) {
                    device.stage(s);
                    caller.stage(s);
                }
                device.publish.enqueue(count);
                caller.publish.enqueue(first, count);
                byDevice.add(device.words(i));
                byCaller.add(caller.words(i));
                first += count;
            }
            return new Outcome(byDevice, byCaller);
        }
    }

    /** One producer's memory and publish step. */
    private static final class Side implements AutoCloseable {
        final DeviceBuffer control;
        final DeviceBuffer ring;
        final MappedBuffer mirror;
        final MappedBuffer staging;
        final MappedBuffer doorbells;
        final MappedBuffer copies;
        final DeviceStream stream;
        final PublishKernel publish;

        Side(Device gpu, String name) {
            RingGeometry g = GEOMETRY;
            this.control = gpu.allocate(ControlBlock.BYTES);
            this.ring = gpu.allocate(g.ringBytes());
            this.mirror = gpu.allocateMapped(ControlBlock.BYTES);
            this.staging = gpu.allocateMapped(g.ringBytes());
            this.doorbells = gpu.allocateMapped(8L * g.doorbellWords());
            this.copies = gpu.allocateMapped(ControlBlock.BYTES + (long) g.slots() * SlotHeader.BYTES);
            this.stream = gpu.newStream(name);
            this.publish = stream.bindPublish(new PublishBinding(control, ring, g, mirror, MAX_BATCH, List.of(), staging,
                    doorbells));
            stream.synchronize();
        }

        void stage(long s) {
            staging.setPlain(GEOMETRY.offsetOf(s) + SlotHeader.LENGTH, stagedLength(s));
        }

        Words words(int index) {
            RingGeometry g = GEOMETRY;
            stream.copy(control, 0, copies, 0, ControlBlock.BYTES);
            for (int slot = 0; slot < g.slots(); slot++) {
                stream.copy(ring, (long) slot * g.stride(), copies, ControlBlock.BYTES + (long) slot * SlotHeader.BYTES,
                        SlotHeader.BYTES);
            }
            stream.synchronize();
            long[] stamps = new long[g.slots()];
            long[] lengths = new long[g.slots()];
            for (int slot = 0; slot < g.slots(); slot++) {
                long header = ControlBlock.BYTES + (long) slot * SlotHeader.BYTES;
                stamps[slot] = copies.getAcquire(header + SlotHeader.STAMP);
                lengths[slot] = copies.getAcquire(header + SlotHeader.LENGTH);
            }
            long[] bells = new long[g.doorbellWords()];
            for (int w = 0; w < bells.length; w++) {
                bells[w] = doorbells.getAcquire(8L * w);
            }
            return new Words(index, copies.getAcquire(ControlBlock.PUBLISH_SEQ), copies.getAcquire(ControlBlock.WRITER_BUSY),
                    mirror.getAcquire(ControlBlock.PUBLISH_SEQ), stamps, lengths, bells);
        }

        @Override
        public void close() {
            stream.close();
            for (AutoCloseable m : new AutoCloseable[] {control, ring, mirror, staging, doorbells, copies}) {
                try {
                    m.close();
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }
        }
    }
}

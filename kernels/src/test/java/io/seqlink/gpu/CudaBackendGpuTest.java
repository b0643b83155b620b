package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.Backends;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.ProbeMeasurement;
import io.seqlink.backend.ProbePlan;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.topology.TopologyReport;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The backend itself on a real GPU: detection, the steps through the SPI (multi-block consume, push
 * replicas, latest-mode validation), the probe and the verifier's report, leak-free open/close, and a
 * hot path that allocates nothing.
 */
@Tag("gpu")
class CudaBackendGpuTest {

    @Test
    void detectionFindsTheDriverAndAutoPicksCuda() {
        Gpu.assumeDriver();
        assertThat(Backends.cudaProvider().detect().summary()).contains("CUDA driver").contains("device");
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().open()) {
            assertThat(rt.backendKind()).isEqualTo(BackendKind.CUDA);
            assertThat(rt.backend().description()).startsWith("cuda backend");
        }
    }

    @Test
    void stepsThroughTheSpiMoveFramesAndKeepTheDescriptor() {
        try (Backend b = Gpu.openBackend()) {
            Device d = b.device(0);
            RingGeometry g = RingGeometry.of(8, 200_000); // 200 KB frames: multi-block consume and push
            DeviceBuffer control = d.allocate(ControlBlock.BYTES);
            DeviceBuffer ring = d.allocate(g.ringBytes());
            MappedBuffer mirror = d.allocateMapped(ControlBlock.BYTES);
            DeviceBuffer replicaControl = d.allocate(ControlBlock.BYTES);
            DeviceBuffer replicaRing = d.allocate(g.ringBytes());
            MappedBuffer hostControl = d.allocateMapped(ControlBlock.BYTES);
            MappedBuffer hostRing = d.allocateMapped(g.ringBytes());
            DeviceStream ps = d.newStream("spi-producer");
            DeviceStream cs = d.newStream("spi-consumer");
            MappedBuffer controlCopy = d.allocateMapped(ControlBlock.BYTES);
            PatternKernels pattern = PatternKernels.on(ps, TestKernels.MODULE);
            PublishKernel publish = ps.bindPublish(new PublishBinding(control, ring, g, mirror, 3, List.of(
                    new PublishBinding.PushTarget(replicaControl, replicaRing), new PublishBinding.PushTarget(hostControl, hostRing))));
            ps.copy(control, 0, controlCopy, 0, ControlBlock.BYTES);
            ps.synchronize();
            assertThat(controlCopy.getAcquire(ControlBlock.WRITER_BUSY)).as("writer_busy starts at max_batch").isEqualTo(3);
            assertThat(hostControl.getAcquire(ControlBlock.WRITER_BUSY)).as("so does every replica's").isEqualTo(3);
            for (long s = 1; s <= 3; s++) {
                int len = 150_000 + (int) s;
                pattern.fill(ring, g.payloadOffsetOf(s), len, s);
                ps.writeValue(ring, g.offsetOf(s) + SlotHeader.LENGTH, len);
            }
            publish.enqueue(3);
            ps.copy(control, 0, controlCopy, 0, ControlBlock.BYTES);
            ps.synchronize();
            assertThat(mirror.getAcquire(ControlBlock.PUBLISH_SEQ)).isEqualTo(3);
            assertThat(controlCopy.getAcquire(ControlBlock.WRITER_BUSY)).isEqualTo(6);
            assertThat(hostControl.getAcquire(ControlBlock.WRITER_BUSY)).isEqualTo(6);
            assertThat(hostControl.getAcquire(ControlBlock.PUBLISH_SEQ)).isEqualTo(3);
            assertThat(hostRing.getPlain(g.offsetOf(2) + SlotHeader.STAMP)).isEqualTo(2);
            int k = 0;
            for (DeviceBuffer[] src : new DeviceBuffer[][] {{control, ring}, {replicaControl, replicaRing}}) {
                DeviceBuffer block = d.allocate(ConsumerBlock.BYTES);
                MappedBuffer cm = d.allocateMapped(ConsumerBlock.BYTES);
                DeviceBuffer local = d.allocate(g.ringBytes());
                MappedBuffer sums = d.allocateMapped(64);
                ConsumeKernel consume = cs.bindConsume(new ConsumeBinding(src[0], src[1], g, 3, local, block, cm, false));
                AckKernel ack = cs.bindAck(new AckBinding(block, cm));
                PatternKernels check = PatternKernels.on(cs, TestKernels.MODULE);
                consume.enqueue(1, 5, 7); // the launcher asked for more than is published: clipped to 3
                for (long s = 1; s <= 3; s++) {
                    check.checksum(local, g.payloadOffsetOf(s), 150_000 + s, sums, 8 * s);
                }
                ack.enqueue(3);
                cs.synchronize();
                assertThat(cm.getAcquire(ConsumerBlock.ROUND)).isEqualTo(7);
                assertThat(cm.getPlain(ConsumerBlock.READY_FROM)).isEqualTo(1);
                assertThat(cm.getPlain(ConsumerBlock.READY_TO)).isEqualTo(3);
                assertThat(cm.getPlain(ConsumerBlock.VALID_FROM)).isEqualTo(1);
                assertThat(cm.getPlain(ConsumerBlock.OBSERVED_PUBLISH)).isEqualTo(3);
                assertThat(cm.getPlain(ConsumerBlock.READS)).isEqualTo(1);
                assertThat(cm.getPlain(ConsumerBlock.SHORT_ROUNDS)).as("an ordinary round that ended short of its range")
                        .isEqualTo(1);
                assertThat(cm.getAcquire(ConsumerBlock.CONSUMED_SEQ)).isEqualTo(3);
                for (long s = 1; s <= 3; s++) {
                    assertThat(sums.getAcquire(8 * s)).as("source %d frame %d", k, s)
                            .isEqualTo(FramePattern.expectedChecksum(s, (int) (150_000 + s)));
                }
                consume.enqueue(4, 4, 8); // nothing published: an empty poll
                cs.synchronize();
                assertThat(cm.getPlain(ConsumerBlock.EMPTY_POLLS)).isEqualTo(1);
                assertThat(cm.getAcquire(ConsumerBlock.ROUND)).isEqualTo(8);
                assertThat(cm.getPlain(ConsumerBlock.SHORT_ROUNDS)).isEqualTo(2);
                k++;
            }
        }
    }

    /**
     * An armed consume step ({@code enqueueArmed}) may end short without counting a short round, and takes nothing once
     * the host marked its round cancelled in the mirror's {@code ARM_CANCEL}, though its frame is published; an
     * ordinary step and a later armed round are not cancelled by the mark. One block and several (200 KB frames).
     */
    @Test
    void anArmedConsumeStepTheHostCancelledTakesNothingPublished() {
        try (Backend b = Gpu.openBackend()) {
            Device d = b.device(0);
            for (int bytes : new int[] {4096, 200_000}) {
                RingGeometry g = RingGeometry.of(8, bytes);
                DeviceBuffer control = d.allocate(ControlBlock.BYTES);
                DeviceBuffer ring = d.allocate(g.ringBytes());
                DeviceStream ps = d.newStream("armed-producer");
                DeviceStream cs = d.newStream("armed-consumer");
                PublishKernel publish = ps.bindPublish(new PublishBinding(control, ring, g, d.allocateMapped(ControlBlock.BYTES), 1,
                        List.of()));
                DeviceBuffer block = d.allocate(ConsumerBlock.BYTES);
                MappedBuffer cm = d.allocateMapped(ConsumerBlock.BYTES);
                ConsumeKernel consume = cs.bindConsume(new ConsumeBinding(control, ring, g, 1, d.allocate(g.ringBytes()), block, cm,
                        false));
                ps.writeValue(ring, g.offsetOf(1) + SlotHeader.LENGTH, bytes);
                publish.enqueue(1);
                ps.synchronize();
                consume.enqueueArmed(2, 2, 1); // frame 2 not published: short, and no short round
                cs.synchronize();
                assertThat(cm.getPlain(ConsumerBlock.READY_TO)).isEqualTo(1);
                assertThat(cm.getPlain(ConsumerBlock.SHORT_ROUNDS)).isZero();
                d.storeWord(block, ConsumerBlock.ARM_CANCEL, 2); // the word kernels read (CancelMark's store)
                ps.writeValue(ring, g.offsetOf(2) + SlotHeader.LENGTH, bytes);
                publish.enqueue(1);
                ps.synchronize();
                consume.enqueueArmed(2, 2, 2);
                cs.synchronize();
                assertThat(cm.getAcquire(ConsumerBlock.ROUND)).isEqualTo(2);
                assertThat(cm.getPlain(ConsumerBlock.READY_TO)).as("%d B: frame 2 published, round 2 cancelled", bytes).isEqualTo(1);
                consume.enqueueArmed(2, 2, 3);
                cs.synchronize();
                assertThat(cm.getPlain(ConsumerBlock.READY_TO)).as("%d B: round 3 is not cancelled", bytes).isEqualTo(2);
                d.storeWord(block, ConsumerBlock.ARM_CANCEL, 10);
                consume.enqueue(2, 2, 4);
                cs.synchronize();
                assertThat(cm.getPlain(ConsumerBlock.READY_TO)).as("%d B: an ordinary round reads no mark", bytes).isEqualTo(2);
                assertThat(cm.getPlain(ConsumerBlock.SHORT_ROUNDS)).isZero();
                cs.close();
                ps.close();
            }
        }
    }

    @Test
    void latestModeValidationReportsFramesTheProducerMayBeOverwriting() {
        try (Backend b = Gpu.openBackend()) {
            Device d = b.device(0);
            RingGeometry g = RingGeometry.of(4, 1000);
            DeviceBuffer control = d.allocate(ControlBlock.BYTES);
            DeviceBuffer ring = d.allocate(g.ringBytes());
            MappedBuffer mirror = d.allocateMapped(ControlBlock.BYTES);
            DeviceStream ps = d.newStream("latest-producer");
            DeviceStream cs = d.newStream("latest-consumer");
            PublishKernel publish = ps.bindPublish(new PublishBinding(control, ring, g, mirror, 2, List.of()));
            DeviceBuffer block = d.allocate(ConsumerBlock.BYTES);
            MappedBuffer cm = d.allocateMapped(ConsumerBlock.BYTES);
            DeviceBuffer local = d.allocate(g.ringBytes());
            ConsumeKernel consume = cs.bindConsume(new ConsumeBinding(control, ring, g, 2, local, block, cm, true));
            for (long s = 1; s <= 6; s++) {
                ps.writeValue(ring, g.offsetOf(s) + SlotHeader.LENGTH, 1000);
                publish.enqueue(1);
            }
            ps.synchronize();
            // writer_busy = 6 + 2 = 8: the producer may be writing 7 and 8 (slots of 3 and 4); 5 and 6 are intact
            consume.enqueue(3, 6, 1);
            cs.synchronize();
            assertThat(cm.getPlain(ConsumerBlock.VALID_FROM)).isEqualTo(5);
            assertThat(cm.getPlain(ConsumerBlock.LAPS)).isEqualTo(2);
            assertThat(cm.getAcquire(ConsumerBlock.ROUND)).isEqualTo(1);
        }
    }

    @Test
    void theProbeAndTheVerifierReportTheRealDevice() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            TopologyReport report = rt.topology();
            assertThat(report.devices()).isNotEmpty();
            assertThat(report.devices().get(0).name()).isEqualTo(rt.backend().device(0).name());
            ProbeMeasurement m = rt.backend().probe(0, 0, ProbePlan.defaults(Duration.ofSeconds(30)));
            System.out.println("seqlink probe 0 -> 0: " + m);
            assertThat(m.functionalOk()).as(m.functionalDetail()).isTrue();
            assertThat(m.atomicAddLatencyNs()).isPositive();
            assertThat(m.acquireLoadLatencyNs()).isPositive();
            assertThat(m.scaling()).hasSize(2 * ProbePlan.defaults(Duration.ofSeconds(1)).threadCounts().size());
            assertThat(m.scaling()).allSatisfy(p -> assertThat(p.opsPerSecond()).isPositive());
            if (rt.backend().deviceCount() > 1) {
                System.out.println("seqlink verifier: " + report.links());
                assertThat(report.links()).isNotEmpty();
            }
        }
    }

    @Test
    void openingAndClosingAThousandChannelsLeavesDeviceMemoryFlat() {
        try (SeqlinkRuntime rt = Gpu.openRuntime()) {
            rt.start(); // the launcher consumes each channel's frame, so closing drains at once
            Device d = rt.backend().device(0);
            for (int i = 0; i < 10; i++) {
                openAndClose(rt, "warm-" + i);
            }
            long before = d.memoryInfo().freeBytes();
            for (int i = 0; i < 1000; i++) {
                openAndClose(rt, "leak-" + i);
            }
            long after = d.memoryInfo().freeBytes();
            System.out.printf("seqlink leak check: free device memory %d -> %d bytes (%+d)%n", before, after, after - before);
            assertThat(before - after).as("device memory lost over 1000 channels").isLessThan(4L << 20);
        }
    }

    private static void openAndClose(SeqlinkRuntime rt, String name) {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder(name).producer(0).consumers(0).slots(16).slotBytes(64 * 1024).build());
        ch.consumer(0).subscribe(frame -> { });
        assertThat(ch.offer(new byte[] {1, 2, 3, 4}, 0, 4)).isEqualTo(1);
        assertThat(ch.drainAndClose(Duration.ofSeconds(10)).totalUndelivered()).isZero();
    }

    @Test
    void theSpiHotPathAllocatesNothingPerFrame() {
        try (Backend b = Gpu.openBackend()) {
            Device d = b.device(0);
            RingGeometry g = RingGeometry.of(64, 16384);
            DeviceBuffer control = d.allocate(ControlBlock.BYTES);
            DeviceBuffer ring = d.allocate(g.ringBytes());
            MappedBuffer mirror = d.allocateMapped(ControlBlock.BYTES);
            DeviceStream ps = d.newStream("alloc-producer");
            DeviceStream cs = d.newStream("alloc-consumer");
            DeviceBuffer block = d.allocate(ConsumerBlock.BYTES);
            MappedBuffer cm = d.allocateMapped(ConsumerBlock.BYTES);
            DeviceBuffer local = d.allocate(g.ringBytes());
            MappedBuffer sums = d.allocateMapped(8 * 64);
            PublishKernel publish = ps.bindPublish(new PublishBinding(control, ring, g, mirror, 16, List.of()));
            ConsumeKernel consume = cs.bindConsume(new ConsumeBinding(control, ring, g, 16, local, block, cm, false));
            AckKernel ack = cs.bindAck(new AckBinding(block, cm));
            PatternKernels fill = PatternKernels.on(ps, TestKernels.MODULE);
            PatternKernels check = PatternKernels.on(cs, TestKernels.MODULE);
            com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long start = 0;
            int warm = 2000;
            int measured = 10_000;
            for (long s = 1; s <= warm + measured; s++) {
                if (s == warm + 1) {
                    start = bean.getCurrentThreadAllocatedBytes();
                }
                fill.fill(ring, g.payloadOffsetOf(s), 16384, s);
                ps.writeValue(ring, g.offsetOf(s) + SlotHeader.LENGTH, 16384);
                publish.enqueue(1);
                while (mirror.getAcquire(ControlBlock.PUBLISH_SEQ) < s) {
                    Thread.onSpinWait();
                }
                consume.enqueue(s, s, s);
                check.checksum(local, g.payloadOffsetOf(s), 16384, sums, 8 * (s % 64));
                ack.enqueue(s);
                while (cm.getAcquire(ConsumerBlock.CONSUMED_SEQ) < s) {
                    Thread.onSpinWait();
                }
            }
            long allocated = bean.getCurrentThreadAllocatedBytes() - start;
            System.out.printf("seqlink hot path: %d bytes allocated over %d frames%n", allocated, measured);
            assertThat(allocated).as("bytes allocated over %d frames", measured).isLessThan(8192);
            long last = warm + measured;
            assertThat(sums.getAcquire(8 * (last % 64))).isEqualTo(FramePattern.expectedChecksum(last, 16384));
        }
    }
}

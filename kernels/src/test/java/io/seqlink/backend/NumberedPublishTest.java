package io.seqlink.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.docs.DeviceKernelsExample;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The publish the caller numbers ({@link PublishKernel#enqueue(long, int)}) writes what the device-numbered one does,
 * and a caller whose numbering is not the device's is caught: the emulated stream fails, naming the rule.
 */
class NumberedPublishTest {

    @Test
    void aNumberedPublishWritesTheWordsTheDeviceNumberedOneWrites() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            NumberedPublishScenario.Outcome outcome = NumberedPublishScenario.run(backend);
            assertThat(outcome.callerNumbered()).isEqualTo(outcome.deviceNumbered());
            assertExpected(outcome.callerNumbered());
        }
    }

    /** What every publish of {@link NumberedPublishScenario#COUNTS} leaves, whoever numbers it. */
    static void assertExpected(List<NumberedPublishScenario.Words> words) {
        RingGeometry g = NumberedPublishScenario.GEOMETRY;
        long last = 0;
        for (NumberedPublishScenario.Words w : words) {
            last += NumberedPublishScenario.COUNTS[w.index()];
            assertThat(w.publishSeq()).as("publish_seq after %s", w).isEqualTo(last);
            assertThat(w.mirror()).as("the host mirror after %s", w).isEqualTo(last);
            assertThat(w.writerBusy()).as("writer_busy after %s", w).isEqualTo(last + NumberedPublishScenario.MAX_BATCH);
            for (int slot = 0; slot < g.slots(); slot++) {
                long s = newestIn(slot, g.slots(), last, g);
                assertThat(w.stamps()[slot]).as("slot %d's stamp after %s", slot, w).isEqualTo(s);
                assertThat(w.lengths()[slot]).as("slot %d's length after %s", slot, w)
                        .isEqualTo(s == 0 ? 0 : NumberedPublishScenario.stagedLength(s));
            }
            for (int word = 0; word < g.doorbellWords(); word++) {
                assertThat(w.doorbells()[word]).as("doorbell %d after %s", word, w).isEqualTo(newestIn(word, g.doorbellWords(), last, null));
            }
        }
    }

    /**
     * The newest sequence up to {@code last} that lands on {@code index}: a slot of {@code ring}, or (no ring) word
     * {@code s % size} of the doorbells; 0 when none.
     */
    private static long newestIn(int index, int size, long last, @Nullable RingGeometry ring) {
        for (long s = last; s >= 1; s--) {
            if ((ring == null ? s % size : ring.slotOf(s)) == index) {
                return s;
            }
        }
        return 0;
    }

    @Test
    void aNumberedPublishCountsTheFramesAUsersKernelPublishedAtItsEnd() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            Step step = Step.bind(backend.device(0), "kernel-then-step", RingGeometry.of(16, 4096));
            step.stream().bindKernel(DeviceKernelsExample.MODULE, "example_produce", KernelParam.PUBLISH_HANDLES,
                    KernelParam.U64, KernelParam.U64).publishHandles(0, step.publish()).u64(1, 4).u64(2, 100)
                    .launch(4, 256); // frames 1..4
            step.publish().enqueue(5, 1);      // the step after it, numbered past the kernel's four
            step.stream().synchronize();
            assertThat(step.mirror().getAcquire(ControlBlock.PUBLISH_SEQ)).isEqualTo(5);
            assertThatThrownBy(() -> {
                step.publish().enqueue(5, 1);  // numbered as if frame 5 were still unpublished
                step.stream().synchronize();
            }).isInstanceOf(DeviceException.class).hasMessageContaining("first unpublished sequence is 6");
        }
    }

    @Test
    void aPublishNumberedWrongFailsTheStreamNamingTheRule() {
        try (EmulatedBackend backend = new EmulatedBackend(EmulatedTopology.allNvlink(1))) {
            Step step = Step.bind(backend.device(0), "wrong-numbering", RingGeometry.of(8, 256));
            assertThatThrownBy(() -> step.publish().enqueue(0, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("first must be a sequence");
            step.publish().enqueue(2);         // frames 1 and 2, numbered by the device
            step.publish().enqueue(3, 1);      // the caller counted them: right
            step.stream().synchronize();
            assertThat(step.mirror().getAcquire(ControlBlock.PUBLISH_SEQ)).isEqualTo(3);
            assertThatThrownBy(() -> {
                step.publish().enqueue(5, 1);  // frame 4 skipped
                step.stream().synchronize();   // (the emulated stream may run it inline, failing the enqueue itself)
            }).isInstanceOf(DeviceException.class)
                    .hasMessageContaining("numbered this publish from 5")
                    .hasMessageContaining("first unpublished sequence is 4")
                    .hasMessageContaining("PublishKernel.enqueue(first, count)");
            assertThat(step.mirror().getAcquire(ControlBlock.PUBLISH_SEQ)).as("nothing published past the mistake")
                    .isEqualTo(3);
        }
    }

    /** A publish step with max batch 4, no push targets or staging, on a stream of its own, and its host mirror. */
    private record Step(DeviceStream stream, MappedBuffer mirror, PublishKernel publish) {
        static Step bind(Device d, String name, RingGeometry g) {
            DeviceStream stream = d.newStream(name);
            MappedBuffer mirror = d.allocateMapped(ControlBlock.BYTES);
            return new Step(stream, mirror, stream.bindPublish(new PublishBinding(d.allocate(ControlBlock.BYTES),
                    d.allocate(g.ringBytes()), g, mirror, 4, List.of())));
        }
    }
}

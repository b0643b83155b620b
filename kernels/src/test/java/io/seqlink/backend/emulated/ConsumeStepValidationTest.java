package io.seqlink.backend.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The consume step's validation, through the backend SPI alone: the stamp in each slot must be the
 * sequence the step meant to read, and under latest delivery {@code writer_busy} bounds what may
 * have been overwritten. What the step decided is read back from the consumer's host mirror.
 */
class ConsumeStepValidationTest {

    private static final RingGeometry G = RingGeometry.of(4, 64);

    private EmulatedBackend backend;
    private DeviceStream producer;
    private DeviceStream consumer;
    private DeviceBuffer ring;
    private PublishKernel publish;
    private MappedBuffer mirror;
    private DeviceBuffer block;
    private DeviceBuffer control;

    @BeforeEach
    void open() {
        backend = new EmulatedBackend(EmulatedTopology.allNvlink(2));
        Device p = backend.device(0);
        producer = p.newStream("producer");
        control = p.allocate(ControlBlock.BYTES);
        ring = p.allocate(G.ringBytes());
        publish = producer.bindPublish(new PublishBinding(control, ring, G, p.allocateMapped(ControlBlock.BYTES), 1, List.of()));
        backend.enablePeerAccess(1, 0); // the consumer pulls from the producer's memory (PEER_ATOMIC)
        consumer = backend.device(1).newStream("consumer");
        mirror = backend.device(1).allocateMapped(ConsumerBlock.BYTES);
        block = backend.device(1).allocate(ConsumerBlock.BYTES);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    private ConsumeKernel consume(boolean lapping) {
        Device c = backend.device(1);
        return consumer.bindConsume(new ConsumeBinding(control, ring, G, 1, c.allocate(G.ringBytes()),
                block, mirror, lapping));
    }

    private void publishFrames(int count) {
        for (int i = 0; i < count; i++) {
            publish.enqueue(1);
        }
        producer.synchronize();
    }

    @Test
    void aSlotWhoseStampIsNotItsSequenceIsNotHandedOut() {
        publishFrames(3);
        producer.writeValue(ring, G.offsetOf(2) + SlotHeader.STAMP, 99); // frame 2's slot claims to hold frame 99
        producer.synchronize();
        consume(false).enqueue(1, 3, 1);
        consumer.synchronize();
        assertThat(mirror.getAcquire(ConsumerBlock.ROUND)).isEqualTo(1);
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).isEqualTo(3);
        assertThat(mirror.getPlain(ConsumerBlock.VALID_FROM)).as("everything up to the bad stamp is dropped").isEqualTo(3);
        assertThat(mirror.getPlain(ConsumerBlock.LAPS)).isEqualTo(2);
    }

    @Test
    void intactFramesPassBothChecks() {
        publishFrames(3);
        consume(true).enqueue(1, 3, 7);
        consumer.synchronize();
        assertThat(mirror.getAcquire(ConsumerBlock.ROUND)).isEqualTo(7);
        assertThat(mirror.getPlain(ConsumerBlock.VALID_FROM)).isEqualTo(1);
        assertThat(mirror.getPlain(ConsumerBlock.LAPS)).isZero();
        assertThat(mirror.getPlain(ConsumerBlock.OBSERVED_PUBLISH)).isEqualTo(3);
    }

    @Test
    void writerBusyBoundsWhatALappedRoundKeeps() {
        publishFrames(6); // writer_busy = 6 + max_batch 1 = 7: frames up to 3 may be overwritten by now
        consume(true).enqueue(1, 6, 1);
        consumer.synchronize();
        assertThat(mirror.getPlain(ConsumerBlock.VALID_FROM)).isEqualTo(4);
        assertThat(mirror.getPlain(ConsumerBlock.LAPS)).isEqualTo(3);
    }

    @Test
    void aRangeBeyondWhatWasPublishedIsClippedAndCountsAsAnEmptyPoll() {
        publishFrames(2);
        consume(false).enqueue(3, 5, 1);
        consumer.synchronize();
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).isEqualTo(2);
        assertThat(mirror.getPlain(ConsumerBlock.EMPTY_POLLS)).isEqualTo(1);
        assertThat(mirror.getPlain(ConsumerBlock.READS)).isZero();
        assertThat(mirror.getPlain(ConsumerBlock.SHORT_ROUNDS)).as("an ordinary round given frames that are not there").isEqualTo(1);
    }

    @Test
    void anArmedRoundMayEndShortAndTakesNothingOnceTheHostCancelledIt() {
        ConsumeKernel consume = consume(false);
        publishFrames(1);
        consume.enqueueArmed(2, 2, 1); // armed before frame 2 exists: ends short, which is no short round
        consumer.synchronize();
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).isEqualTo(1);
        assertThat(mirror.getPlain(ConsumerBlock.SHORT_ROUNDS)).isZero();
        backend.device(1).storeWord(block, ConsumerBlock.ARM_CANCEL, 2); // the host cancelled round 2 (CancelMark.raise)
        publishFrames(1);
        consume.enqueueArmed(2, 2, 2);
        consumer.synchronize();
        assertThat(mirror.getAcquire(ConsumerBlock.ROUND)).isEqualTo(2);
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).as("published, but the round was cancelled: nothing").isEqualTo(1);
        assertThat(mirror.getPlain(ConsumerBlock.OBSERVED_PUBLISH)).as("the bound it clipped to").isEqualTo(1);
        consume.enqueueArmed(2, 2, 3); // a later armed round is not cancelled by round 2's mark
        consumer.synchronize();
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).isEqualTo(2);
        backend.device(1).storeWord(block, ConsumerBlock.ARM_CANCEL, 10);
        consume.enqueue(2, 2, 4); // nor is an ordinary round, by any mark
        consumer.synchronize();
        assertThat(mirror.getPlain(ConsumerBlock.READY_TO)).isEqualTo(2);
        assertThat(mirror.getPlain(ConsumerBlock.SHORT_ROUNDS)).isZero();
    }
}

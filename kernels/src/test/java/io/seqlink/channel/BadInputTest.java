package io.seqlink.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every bad input is rejected with a message that names the argument and says what to do, and leaves
 * nothing changed: after each rejection the same runtime (or channel) still works. One test per input.
 */
class BadInputTest {

    private SeqlinkRuntime rt;

    @BeforeEach
    void open() {
        // probing off: verdicts from the (simulated) driver attributes, deterministic under any CPU load
        rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(3))
                .verifier(VerifierSettings.defaults().withEnabled(false)).open();
    }

    @AfterEach
    void close() {
        rt.close();
    }

    private static ChannelSpec.Builder valid(String name) {
        return ChannelSpec.builder(name).producer(0).consumers(1, 2).slots(8).slotBytes(64);
    }

    /** The spec is rejected naming {@code property} with a fix, and a valid channel of that name then opens and works. */
    private void rejected(ChannelSpec spec, String property, String problemPart, String fixPart) {
        assertThatThrownBy(() -> rt.openChannel(spec)).isInstanceOfSatisfying(InvalidChannelSpecException.class, e -> {
            assertThat(e.violations()).anySatisfy(v -> {
                assertThat(v.property()).isEqualTo(property);
                assertThat(v.problem()).contains(problemPart);
                assertThat(v.fix()).contains(fixPart);
            });
            assertThat(e.getMessage()).contains(property).contains("Fix:");
        });
        assertThat(rt.channels()).isEmpty();
        PublishChannel ch = rt.openChannel(valid(String.valueOf(spec.name()).isBlank() ? "ok" : "ok-" + rt.channels().size()).build());
        assertWorks(ch);
    }

    /** Publishes one frame and polls every consumer by hand: each gets it intact. */
    static void assertWorks(PublishChannel ch) {
        byte[] bytes = "still works".getBytes(StandardCharsets.UTF_8);
        long seq = ch.offer(bytes, 0, bytes.length);
        assertThat(seq).as("offer after a rejected input").isPositive();
        for (int device : ch.consumerDevices()) {
            List<String> got = new ArrayList<>();
            FrameHandler h = f -> {
                if (f.sequence() == seq) {
                    got.add(StandardCharsets.UTF_8.decode(f.payload()).toString());
                }
            };
            for (int i = 0; i < 100 && got.isEmpty(); i++) {
                ch.consumer(device).poll(h, 64);
            }
            assertThat(got).as("consumer %d", device).containsExactly("still works");
        }
    }

    // ---- channel specs -------------------------------------------------------------------------

    @Test
    void noConsumers() {
        rejected(valid("none").consumers(List.of()).build(), "consumers", "no consumers", "at least one consumer");
    }

    @Test
    void nullConsumers() {
        rejected(valid("null").consumers((List<Integer>) null).build(), "consumers", "no consumers", "at least one consumer");
    }

    @Test
    void duplicateConsumers() {
        rejected(valid("dup").consumers(1, 1).build(), "consumers", "listed twice", "list each consumer device once");
    }

    @Test
    void negativeConsumer() {
        rejected(valid("neg").consumers(-1).build(), "consumers", "not a device ordinal", "0 or more");
    }

    @Test
    void nullConsumerDevice() {
        rejected(valid("null-device").consumers(1, null).build(), "consumers", "consumer device null is not a device ordinal",
                "0 or more");
    }

    @Test
    void zeroSlots() {
        rejected(valid("zero-slots").slots(0).maxPublishBatch(1).build(), "slots", "slots is 0", "set slots between 2 and");
    }

    @Test
    void negativeSlots() {
        rejected(valid("neg-slots").slots(-8).maxPublishBatch(1).build(), "slots", "slots is -8", "set slots between");
    }

    @Test
    void oneSlot() {
        rejected(valid("one-slot").slots(1).maxPublishBatch(1).build(), "slots", "slots is 1", "set slots between 2");
    }

    @Test
    void tooManySlots() {
        rejected(valid("many-slots").slots(RingGeometry.MAX_SLOTS + 1).build(), "slots", "outside", "set slots between");
    }

    @Test
    void zeroSlotSize() {
        rejected(valid("zero-size").slotBytes(0).build(), "slot-size", "slot size is 0 bytes",
                "set slot-size between 1B and " + RingGeometry.MAX_SLOT_BYTES + "B");
    }

    @Test
    void negativeSlotSize() {
        rejected(valid("neg-size").slotBytes(-64).build(), "slot-size", "slot size is -64 bytes", "set slot-size");
    }

    @Test
    void slotSizeAboveWhatTwoSlotsOfTheLargestRingHold() {
        // 1 GiB, the maximum documented before: two such slots do not fit in a ring the host can address
        rejected(valid("huge-size").slotBytes(1L << 30).build(), "slot-size", "outside 1 B to 1073741632 B (1 GiB - 448 B",
                "set slot-size between 1B and 1073741632B");
    }

    @Test
    void ringAboveTwoGigabytes() {
        // 64 x 64 MB: 4 GiB and 8 KiB, which overflowed an int at allocation before
        rejected(valid("huge-ring").slots(64).slotBytes(64L << 20).build(), "slot-size",
                "= 4294975488 B, above the 2147483647 B (2 GiB - 1 B) of one ring", "lower slot-size to at most 33554240B for 64 slots");
    }

    @Test
    void publishBatchNotBelowSlots() {
        rejected(valid("batch").slots(4).maxPublishBatch(4).build(), "max-publish-batch", "outside 1 to slots - 1",
                "set max-publish-batch between 1 and 3");
    }

    @Test
    void unknownProducerDevice() {
        rejected(valid("bad-producer").producer(7).build(), "producer", "producer device 7 is not among the devices in use [0, 1, 2]",
                "pick one of [0, 1, 2]");
    }

    @Test
    void unknownConsumerDevice() {
        rejected(valid("bad-consumer").consumers(1, 9).build(), "consumers", "consumer device 9 is not among the devices in use",
                "pick devices from [0, 1, 2]");
    }

    @Test
    void badName() {
        rejected(valid("a/b").build(), "name", "is not 1 to 64 letters", "rename the channel");
    }

    @Test
    void latestWithDirectReads() {
        rejected(valid("latest-direct").delivery(Delivery.LATEST).readMode(ReadMode.DIRECT).build(), "read-mode",
                "cannot be combined with delivery latest", "use read-mode copy");
    }

    @Test
    void nameAlreadyOpen() {
        PublishChannel first = rt.openChannel(valid("taken").build());
        assertThatThrownBy(() -> rt.openChannel(valid("taken").build())).isInstanceOfSatisfying(InvalidChannelSpecException.class,
                e -> assertThat(e.violations()).anySatisfy(v -> {
                    assertThat(v.property()).isEqualTo("name");
                    assertThat(v.fix()).contains("give each channel its own name");
                }));
        assertThat(rt.channels()).containsExactly(first);
        assertWorks(first);
    }

    @Test
    void everyProblemIsListedAtOnce() {
        ChannelSpec spec = ChannelSpec.builder("all wrong").producer(5).consumers(List.of()).slots(0).slotBytes(0)
                .maxPublishBatch(0).build();
        assertThatThrownBy(() -> rt.openChannel(spec)).isInstanceOfSatisfying(InvalidChannelSpecException.class,
                e -> assertThat(e.violations()).extracting(Violation::property)
                        .contains("name", "producer", "consumers", "slots", "slot-size", "max-publish-batch"));
        assertThat(rt.channels()).isEmpty();
    }

    // ---- producer calls ---------------------------------------------------------------------------

    /** Runs {@code call} on a fresh channel, checks it throws {@code type} with the message parts, and that nothing changed. */
    private void producerRejects(Consumer<PublishChannel> setup, ThrowingCallableOn call, Class<? extends Throwable> type,
            String... messageParts) {
        PublishChannel ch = rt.openChannel(valid("producer-calls").build());
        setup.accept(ch);
        ChannelSnapshot before = ch.snapshot();
        assertThatThrownBy(() -> call.on(ch)).isInstanceOf(type).message().contains(messageParts);
        ChannelSnapshot after = ch.snapshot();
        assertThat(after.claimed()).isEqualTo(before.claimed());
        assertThat(after.published()).isEqualTo(before.published());
        assertThat(after.state()).isEqualTo(ChannelState.OPEN);
    }

    @FunctionalInterface
    interface ThrowingCallableOn {
        void on(PublishChannel ch) throws Throwable;
    }

    @Test
    void commitMoreBytesThanASlotHolds() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> {
            holder[0] = ch;
            assertThat(ch.tryClaim()).isEqualTo(1);
        }, ch -> ch.commit(65), IllegalArgumentException.class, "commit(length)", "length 65 is outside 0..64",
                "raise the channel's slot-size");
        // the claim is still open and can be committed properly, and it is frame 1
        PublishChannel ch = holder[0];
        ch.buffer().put(0, (byte) 7);
        ch.commit(1);
        assertThat(ch.publish()).isEqualTo(1);
        assertWorks(ch);
    }

    @Test
    void commitNegativeLength() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> {
            holder[0] = ch;
            ch.tryClaim();
        }, ch -> ch.commit(-1), IllegalArgumentException.class, "commit(length)", "length -1 is outside 0..64", "write at most 64 bytes");
        holder[0].commit(0);
        holder[0].publish();
        assertWorks(holder[0]);
    }

    @Test
    void offerMoreBytesThanASlotHolds() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, ch -> ch.offer(new byte[65], 0, 65), IllegalArgumentException.class,
                "offer: length holds 65 bytes, more than the slot size 64", "send smaller frames or raise the channel's slot-size");
        assertWorks(holder[0]);
        assertThat(holder[0].snapshot().claimed()).isEqualTo(1);
    }

    @Test
    void offerBufferMoreBytesThanASlotHolds() {
        PublishChannel[] holder = new PublishChannel[1];
        ByteBuffer big = ByteBuffer.allocate(100);
        producerRejects(ch -> holder[0] = ch, ch -> ch.offer(big), IllegalArgumentException.class,
                "offer: src holds 100 bytes, more than the slot size 64", "raise the channel's slot-size");
        assertThat(big.position()).isZero();
        assertWorks(holder[0]);
    }

    @Test
    void offerRangeOutsideTheArray() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, ch -> ch.offer(new byte[8], 4, 8), IndexOutOfBoundsException.class,
                "offer(src, offset, length): range [4, 12) is outside the array of 8 bytes");
        assertWorks(holder[0]);
    }

    @Test
    void publishWithNothingCommittedPublishesNothing() {
        // not an error: with several producers, another thread's publish may have taken this thread's frames
        PublishChannel ch = rt.openChannel(valid("nothing").build());
        assertThat(ch.publish()).isZero();
        assertThat(ch.snapshot().published()).isZero();
        assertWorks(ch);
    }

    @Test
    void publishLeavesAClaimThatWasNotCommitted() {
        PublishChannel ch = rt.openChannel(valid("uncommitted").build());
        assertThat(ch.tryClaim()).isEqualTo(1);
        assertThat(ch.publish()).as("frame 1 is claimed, not committed: nothing to publish yet").isZero();
        assertThat(ch.tryClaim()).as("the claim is still open").isEqualTo(ClaimStatus.CLAIM_OPEN);
        ch.commit(0);
        assertThat(ch.publish()).isEqualTo(1);
        assertWorks(ch);
    }

    @Test
    void commitWithoutAClaim() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, ch -> ch.commit(8), IllegalStateException.class,
                "commit(length): no frame is claimed on channel 'producer-calls'", "call tryClaim() or claim() first");
        assertWorks(holder[0]);
    }

    @Test
    void commitDeviceWithoutAClaim() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, ch -> ch.commitDevice(8), IllegalStateException.class,
                "commitDevice(length): no frame is claimed", "call tryClaim() or claim() first");
        assertWorks(holder[0]);
    }

    @Test
    void bufferWithoutAClaim() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, PublishChannel::buffer, IllegalStateException.class,
                "buffer(): no frame is claimed on channel 'producer-calls'", "call tryClaim() first");
        assertWorks(holder[0]);
    }

    @Test
    void devicePointerWithoutAClaim() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, PublishChannel::devicePointer, IllegalStateException.class,
                "devicePointer(): no frame is claimed", "call tryClaim() first");
        assertWorks(holder[0]);
    }

    @Test
    void payloadOffsetOfSequenceZero() {
        PublishChannel[] holder = new PublishChannel[1];
        producerRejects(ch -> holder[0] = ch, ch -> ch.payloadOffset(0), IllegalArgumentException.class,
                "sequence must be 1 or more, was 0");
        assertWorks(holder[0]);
    }

    @Test
    void claimTwiceWithoutCommitReportsClaimOpen() {
        PublishChannel ch = rt.openChannel(valid("twice").build());
        assertThat(ch.tryClaim()).isEqualTo(1);
        assertThat(ch.tryClaim()).isEqualTo(ClaimStatus.CLAIM_OPEN);
        assertThat(ClaimStatus.describe(ClaimStatus.CLAIM_OPEN)).isEqualTo("CLAIM_OPEN");
        ch.commit(0);
        ch.publish();
        assertWorks(ch);
    }

    @Test
    void unknownConsumerPort() {
        PublishChannel ch = rt.openChannel(valid("ports").build());
        assertThatThrownBy(() -> ch.consumer(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("device 0 is not a consumer of channel 'ports'; its consumers are [1, 2]");
        assertWorks(ch);
    }

    @Test
    void pollWithoutAListener() {
        PublishChannel ch = rt.openChannel(valid("no-listener").build());
        assertThatThrownBy(() -> ch.consumer(1).poll(8)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("consumer 1 of channel 'no-listener' has no listener; subscribe one or call poll(handler, maxFrames)");
        assertWorks(ch);
    }

    @Test
    void pollWithNonPositiveMaxFrames() {
        PublishChannel ch = rt.openChannel(valid("max-frames").build());
        assertThatThrownBy(() -> ch.consumer(1).poll(f -> { }, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxFrames must be at least 1, was 0");
        assertWorks(ch);
    }

    // ---- use after close --------------------------------------------------------------------------

    private PublishChannel closedChannel() {
        PublishChannel ch = rt.openChannel(valid("closed").build());
        assertWorks(ch);
        DrainReport report = ch.drainAndClose(java.time.Duration.ofSeconds(1));
        assertThat(report.totalUndelivered()).isZero();
        assertThat(ch.state()).isEqualTo(ChannelState.CLOSED);
        return ch;
    }

    @Test
    void claimAfterCloseReturnsClosed() {
        PublishChannel ch = closedChannel();
        assertThat(ch.tryClaim()).isEqualTo(ClaimStatus.CLOSED);
        assertThat(ch.claim()).isEqualTo(ClaimStatus.CLOSED);
        assertThat(ch.offer(new byte[1], 0, 1)).isEqualTo(ClaimStatus.CLOSED);
        assertThat(ch.state()).isEqualTo(ChannelState.CLOSED);
    }

    @Test
    void commitAfterCloseNamesTheFix() {
        PublishChannel ch = closedChannel();
        assertThatThrownBy(() -> ch.commit(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("commit: channel 'closed' is closed; open a new channel to publish again");
    }

    @Test
    void aFrameCommittedBeforeTheCloseIsPublishedByItsDrainAndThePublishAfterReturns() {
        PublishChannel ch = rt.openChannel(valid("closed").build());
        assertThat(ch.tryClaim()).isEqualTo(1);
        ch.commit(0);
        DrainReport report = ch.drainAndClose(java.time.Duration.ofSeconds(1));
        assertThat(report.unpublished()).as("committed before the drain: the drain published it").isZero();
        assertThat(report.published()).isEqualTo(1);
        assertThat(ch.publish()).as("nothing of this thread's is left to publish").isZero();
    }

    @Test
    void publishAfterCloseWithNothingOfThisThreadPublishesNothing() {
        assertThat(closedChannel().publish()).isZero();
    }

    @Test
    void bufferAfterCloseNamesTheFix() {
        PublishChannel ch = closedChannel();
        assertThatThrownBy(ch::buffer).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("buffer(): channel 'closed' is closed; open a new channel to publish again");
    }

    @Test
    void snapshotAndPollAfterCloseStillAnswer() {
        PublishChannel ch = closedChannel();
        ChannelSnapshot s = ch.snapshot();
        assertThat(s.state()).isEqualTo(ChannelState.CLOSED);
        assertThat(s.published()).isEqualTo(1);
        assertThat(s.consumers()).allSatisfy(c -> assertThat(c.acknowledged()).isEqualTo(1));
        assertThat(ch.consumer(1).poll(f -> { }, 8)).isZero();
        assertThat(ch.consumer(1).snapshot().state()).isEqualTo(ConsumerState.CLOSED);
        ch.close(); // idempotent
    }

    @Test
    void aClosedChannelsNameCanBeUsedAgain() {
        closedChannel();
        PublishChannel again = rt.openChannel(valid("closed").build());
        assertWorks(again);
        assertThat(rt.channels()).containsExactly(again);
    }

    @Test
    void openChannelAfterRuntimeCloseNamesTheState() {
        rt.close();
        assertThatThrownBy(() -> rt.openChannel(valid("late").build())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the seqlink runtime is closed");
    }

    @SuppressWarnings("unused")
    private static ThrowingCallable noop() {
        return () -> { };
    }
}

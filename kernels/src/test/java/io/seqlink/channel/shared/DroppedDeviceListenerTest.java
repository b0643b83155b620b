package io.seqlink.channel.shared;

import static io.seqlink.channel.shared.DroppedWhileAliveTest.check;
import static io.seqlink.channel.shared.DroppedWhileAliveTest.reports;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.FramePattern;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.FrameChecker;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DroppedWhileAliveTest} for a device listener on an attached channel: the consumer's device reads the region's
 * ring in place (its consume step and the listener's kernels, here {@link ArmedChecksumListener}'s checksum kernel), and
 * its acknowledgement must reach the seat the producer gates on only through the port's check of the seat, never by the
 * device's own store. The test drops the seat itself (the compare-and-set {@code ExportSeats.drop} makes, through a
 * mapping of its own) and reads the seat's {@code consumed_seq} through that mapping: dropped between rounds (the port
 * paused while the producer laps the ring and rewrites the next slot by a held claim), the listener must not be called
 * and nothing may land in the seat; dropped while the listener is called for a round (it holds in {@code onFrames} before
 * it enqueues its kernels, so the device reads the round after the drop, a rewritten slot among them), nothing of the
 * round may land in the seat and the round must be reported.
 */
class DroppedDeviceListenerTest {

    /** Every frame's payload length: the checksum kernel checks frames of one length. */
    static final int LENGTH = 40;
    /** The listener's results hold frames 1..CAPACITY. */
    static final int CAPACITY = 64;

    @TempDir
    Path tmp;

    @Test
    void aDeviceListenerFoundDroppedAsARoundBeginsIsNotCalledAndNothingLandsInTheSeat() throws Exception {
        DroppedWhileAliveTest.Runs.each("device listener dropped between rounds", tmp,
                DroppedDeviceListenerTest::droppedBetweenRounds);
    }

    @Test
    void aDeviceListenerDroppedWhileCalledForARoundHasThatRoundReportedAndNothingLandsInTheSeat() throws Exception {
        DroppedWhileAliveTest.Runs.each("device listener dropped inside a round", tmp,
                DroppedDeviceListenerTest::droppedInsideARound);
    }

    /**
     * Frames 1..20 acknowledged, the port paused, the seat dropped, a lap published and frame 21's slot rewritten by a
     * held claim; the port resumed. Returns what went wrong (empty: nothing).
     */
    static List<String> droppedBetweenRounds(Path dir) throws Exception {
        return afterTwentyAcknowledged(dir, checksums -> new Holding(checksums, Long.MAX_VALUE, new CountDownLatch(1),
                new CountDownLatch(0)), (ch, in, seat) -> {
                    in.consumer().pause(); // stands for a stopped process: it reads nothing from here
                    seat.drop();
                    publish(ch, 21, 20 + DroppedWhileAliveTest.SLOTS); // a whole lap: the dropped seat no longer holds it back
                    heldClaimWithForeignPayload(ch, 21 + DroppedWhileAliveTest.SLOTS); // frame 21's slot: frame 37's payload
                    in.consumer().resume();
                }, (wrong, in, checksums) -> {
                    long called = 0;
                    for (long s = 21; s <= 20 + DroppedWhileAliveTest.SLOTS; s++) {
                        called += checksums.calls(s) + checksums.deliveries(s);
                    }
                    check(wrong, called == 0, called + " listener calls or device deliveries of frames after the drop");
                    check(wrong, in.state() == ChannelState.FAILED, "state " + in.state());
                    Throwable f = in.failure();
                    String named = "the producer dropped this consumer before frames 21";
                    check(wrong, f != null && String.valueOf(f.getMessage()).contains(named), "failure " + f);
                    for (long s = 1; s <= 20; s++) {
                        check(wrong, checksums.deliveries(s) == 1 && checksums.intact(s), "frame " + s + " delivered "
                                + checksums.deliveries(s) + " times, intact " + checksums.intact(s));
                    }
                });
    }

    /**
     * Frames 1..20 acknowledged; frames 21..30 published as one round, whose listener call holds before it enqueues its
     * kernels; the seat dropped, a lap published past frame 21's slot and frame 22's slot rewritten by a held claim; the
     * call released, so the device reads the round after the drop. Returns what went wrong (empty: nothing).
     */
    static List<String> droppedInsideARound(Path dir) throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        return afterTwentyAcknowledged(dir, checksums -> new Holding(checksums, 21, holding, release), (ch, in, seat) -> {
            in.consumer().pause();
            publish(ch, 21, 30); // one round for the consumer as it resumes
            in.consumer().resume();
            assertThat(holding.await(60, TimeUnit.SECONDS)).as("the listener is called for frame 21's round").isTrue();
            seat.drop();
            publish(ch, 31, 20 + DroppedWhileAliveTest.SLOTS + 1); // frame 21's slot published again
            heldClaimWithForeignPayload(ch, 22 + DroppedWhileAliveTest.SLOTS); // frame 22's slot: frame 38's payload
            release.countDown();
        }, (wrong, in, checksums) -> {
            check(wrong, in.state() == ChannelState.FAILED, "state " + in.state());
            Throwable f = in.failure();
            String named = "while frames 21..30 were with its device listener";
            check(wrong, f != null && reports(f).stream().anyMatch(m -> m.contains(named)),
                    "the failure, or what was added to it, says '" + named + "': " + (f == null ? null : reports(f)));
            System.out.println("inside a round: frame 22 read " + (checksums.intact(22) ? "intact" : "rewritten") + " by the device; "
                    + (f == null ? "no failure" : reports(f)));
        });
    }

    /** What a scenario does once frames 1..20 are acknowledged into the seat: its drop. */
    interface Drop {
        void run(PublishChannel ch, AttachedChannel in, Seat seat) throws Exception;
    }

    /** What a scenario checks besides what every scenario checks, adding what went wrong to {@code wrong}. */
    interface Checks {
        void add(List<String> wrong, AttachedChannel in, ArmedChecksumListener checksums);
    }

    /**
     * A producer and a consumer process's runtime, the consumer's device listener ({@code holding} around an
     * {@link ArmedChecksumListener}) on the attached channel; frames 1..20 published and acknowledged into the seat; then
     * {@code drop}. Once the attachment FAILED (or frames after the drop reached the seat) and the device is idle, checks
     * that the seat and the port show 20 acknowledged, then {@code checks}. Returns what went wrong (empty: nothing).
     */
    static List<String> afterTwentyAcknowledged(Path dir, Function<ArmedChecksumListener, Holding> holding,
            Drop drop, Checks checks) throws Exception {
        try (SeqlinkRuntime producer = DroppedWhileAliveTest.runtime(); SeqlinkRuntime consumer = DroppedWhileAliveTest.runtime()) {
            PublishChannel ch = producer.openChannel(DroppedWhileAliveTest.spec(dir));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, DroppedWhileAliveTest.SECRET));
            ArmedChecksumListener checksums = new ArmedChecksumListener(in.consumer().stream(), CAPACITY, LENGTH);
            try (Seat seat = Seat.of(dir, ch, in)) {
                in.consumer().subscribeDevice(holding.apply(checksums));
                consumer.start();
                publish(ch, 1, 20);
                SharedRingPlaceTest.await(() -> seat.acknowledged() == 20, "frames 1..20 acknowledged into the seat");

                drop.run(ch, in, seat);
                SharedRingPlaceTest.await(() -> in.state() == ChannelState.FAILED || seat.acknowledged() > 20,
                        "the attachment FAILED, or frames after the drop acknowledged into the seat");
                in.consumer().stream().synchronize(); // whatever the device had left to do
                Thread.sleep(50); // and a poll pass or two after it
                ch.abandon();

                List<String> wrong = new ArrayList<>();
                check(wrong, seat.acknowledged() == 20, "the seat shows " + seat.acknowledged() + " acknowledged, not 20");
                check(wrong, in.consumer().acknowledged() == 20, "the port says " + in.consumer().acknowledged() + " acknowledged");
                checks.add(wrong, in, checksums);
                return wrong;
            }
        }
    }

    /** {@code inner}, its call for the round holding frame {@code at} held (before any kernel is enqueued) until released. */
    record Holding(ArmedChecksumListener inner, long at, CountDownLatch holding, CountDownLatch release) implements DeviceFrameHandler {
        @Override
        public void onFrames(DeviceFrames frames) {
            if (frames.first() <= at && at <= frames.last()) {
                holding.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            inner.onFrames(frames);
        }
    }

    /** The attachment's seat through the test's own mapping of the region: the producer's drop, and what the seat shows. */
    record Seat(FileChannel file, MappedByteBuffer map, int live, int consumedSeq, long epoch) implements AutoCloseable {
        private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

        static Seat of(Path dir, PublishChannel ch, AttachedChannel in) throws IOException {
            SharedLayout layout = new SharedLayout(ch.spec().geometry(), ch.spec().maxPublishBatch(), ChannelShare.DEFAULT_SEATS);
            FileChannel f = FileChannel.open(SharedDirectory.region(dir, "frames"), StandardOpenOption.READ, StandardOpenOption.WRITE);
            MappedByteBuffer map = f.map(FileChannel.MapMode.READ_WRITE, 0, f.size());
            return new Seat(f, map, (int) (layout.seatLine(in.seat()) + SharedLayout.S_LIVE),
                    (int) (layout.mirror(in.seat()) + ConsumerBlock.CONSUMED_SEQ), in.epoch());
        }

        /** The producer's drop: the compare-and-set of the seat's live epoch to 0. */
        void drop() {
            assertThat(WORDS.compareAndSet(map, live, epoch, 0L)).as("the seat held the attachment's epoch").isTrue();
        }

        /** The seat's {@code consumed_seq}, the word the producer gates on. */
        long acknowledged() {
            return (long) WORDS.getAcquire(map, consumedSeq);
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** Claims the next frame, which must be {@code expected}, and writes its own payload into its slot, holding the claim. */
    static void heldClaimWithForeignPayload(PublishChannel ch, long expected) {
        long seq = ch.claim(30, TimeUnit.SECONDS);
        assertThat(seq).as("the held claim").isEqualTo(expected);
        FramePattern.fill(ch.buffer(), 0, LENGTH, FrameChecker.seedOf(seq));
    }

    static void publish(PublishChannel ch, long from, long to) {
        for (long s = from; s <= to; s++) {
            long seq = ch.claim(30, TimeUnit.SECONDS);
            assertThat(seq).as("claim of frame " + s).isEqualTo(s);
            FramePattern.fill(ch.buffer(), 0, LENGTH, FrameChecker.seedOf(seq));
            ch.commit(LENGTH);
            ch.publish();
        }
    }
}

package io.seqlink.channel.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.FrameChecker;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer the producer dropped while it was alive (in production: a process stopped longer than the stall timeout)
 * must not hand its listener frames the producer rewrote after the drop as if they were intact. Both sides run in this
 * JVM, each through its own mapping of the region; the test makes the producer's drop itself, through a third mapping
 * (the compare-and-set of the seat's live epoch to 0 that {@code ExportSeats.drop} makes), so it decides where the
 * consumer stands when the drop happens: between rounds (its port paused: it reads nothing while the producer laps the
 * ring), or inside a round (its listener holding a frame). The producer then rewrites the very slot the consumer reads
 * next, by a claim it holds open: the slot keeps the old frame's stamp while its payload is another frame's, which the
 * stamp check cannot see and {@link FrameChecker}'s checksum can. The heartbeats are 30 s apart, so the attachment's
 * heartbeat thread does not find the drop first (the assertions hold either way).
 */
class DroppedWhileAliveTest {

    static final SharedSecret SECRET = SharedSecret.of("a secret of at least sixteen bytes", "test.secret");
    static final int MAX_LENGTH = 48;
    static final int SLOTS = 16;
    private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    @TempDir
    Path tmp;

    static SeqlinkRuntime runtime() {
        return SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
    }

    static ChannelSpec spec(Path dir) {
        return ChannelSpec.builder("frames").producer(0).slots(SLOTS).slotBytes(MAX_LENGTH).stallTimeout(Duration.ofSeconds(60))
                .share(ChannelShare.of(dir, SECRET).withHeartbeat(Duration.ofSeconds(30))).build();
    }

    /** Runs of each scenario ({@code -Dseqlink-build.dropped.runs=N}); every run must hold. */
    static final int RUNS = Integer.getInteger("seqlink-build.dropped.runs", 3);

    @Test
    void aConsumerFoundDroppedAsARoundBeginsDeliversNoneOfIt() throws Exception {
        Runs.each("dropped between rounds", tmp, DroppedWhileAliveTest::droppedBetweenRounds);
    }

    @Test
    void aConsumerDroppedWhileItsListenerHoldsARoundHasThatRoundReportedAndUnacknowledged() throws Exception {
        Runs.each("dropped inside a round", tmp, DroppedWhileAliveTest::droppedInsideARound);
    }

    /**
     * Frames 1..20 acknowledged, the port paused, the seat dropped, a lap published and frame 21's slot rewritten by a
     * held claim; the port resumed. Returns what went wrong (empty: nothing).
     */
    static List<String> droppedBetweenRounds(Path dir) throws Exception {
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(spec(dir));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            FrameChecker checker = checker(in.startsAfter());
            in.consumer().subscribe(checker);
            consumer.start();
            SharedRingPlaceTest.publish(ch, 1, 20);
            SharedRingPlaceTest.await(() -> in.consumer().acknowledged() == 20, "frames 1..20 acknowledged");

            in.consumer().pause(); // stands for a stopped process: it reads nothing from here
            drop(dir, ch, in);
            SharedRingPlaceTest.publish(ch, 21, 20 + SLOTS); // the dropped consumer no longer holds the producer back: a whole lap
            heldClaimWithForeignPayload(ch, 21 + SLOTS); // frame 21's slot: stamp 21, frame 37's payload
            in.consumer().resume();
            SharedRingPlaceTest.await(() -> in.state() == ChannelState.FAILED || in.consumer().acknowledged() > 20,
                    "the attachment FAILED, or frames after the drop acknowledged");
            ch.abandon();

            List<String> wrong = new ArrayList<>();
            check(wrong, checker.corrupt == 0, checker.corrupt + " frames delivered from slots rewritten after the drop");
            check(wrong, checker.delivered == 20, (checker.delivered - 20) + " frames delivered after the drop");
            check(wrong, in.consumer().acknowledged() == 20, "acknowledged " + in.consumer().acknowledged());
            check(wrong, in.state() == ChannelState.FAILED, "state " + in.state());
            Throwable f = in.failure();
            check(wrong, f != null && String.valueOf(f.getMessage()).contains("the producer dropped this consumer"), "failure " + f);
            if (f != null) {
                System.out.println("between rounds: " + reports(f));
            }
            return wrong;
        }
    }

    /**
     * Frames 1..20 acknowledged; frames 21..30 taken by one round whose listener holds frame 21; the seat dropped, frame
     * 21's slot published again and frame 22's rewritten by a held claim; the listener released. Returns what went
     * wrong (empty: nothing).
     */
    static List<String> droppedInsideARound(Path dir) throws Exception {
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(spec(dir));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            FrameChecker checker = checker(in.startsAfter());
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            in.consumer().subscribe(new Holding(checker, 21, holding, release));
            consumer.start();
            SharedRingPlaceTest.publish(ch, 1, 20);
            SharedRingPlaceTest.await(() -> in.consumer().acknowledged() == 20, "frames 1..20 acknowledged");

            in.consumer().pause();
            SharedRingPlaceTest.publish(ch, 21, 30); // one round for the consumer as it resumes (the device loop takes up to 32 frames a round)
            in.consumer().resume();
            assertThat(holding.await(60, TimeUnit.SECONDS)).as("the listener holds frame 21").isTrue();
            drop(dir, ch, in);
            SharedRingPlaceTest.publish(ch, 31, 20 + SLOTS + 1); // frame 21's slot published again (the listener read it before it held)
            heldClaimWithForeignPayload(ch, 22 + SLOTS); // frame 22's slot: stamp 22, frame 38's payload
            release.countDown();
            SharedRingPlaceTest.await(() -> in.state() == ChannelState.FAILED || in.consumer().acknowledged() > 20,
                    "the attachment FAILED, or frames after the drop acknowledged");
            ch.abandon();

            // the seat is looked at before each listener call: the frame in the call as the drop came (21, read before
            // it) is the last the listener gets; 22 (rewritten after the drop) and the rest of the round never reach
            // it, and the round is reported instead of acknowledged
            List<String> wrong = new ArrayList<>();
            check(wrong, checker.delivered <= 21, "delivered " + checker.delivered + " frames, more than 1..20 and the one in "
                    + "the listener's call as the seat was dropped (21)");
            check(wrong, checker.corrupt == 0, checker.corrupt + " frames corrupt (frame 22 was rewritten after the drop)");
            check(wrong, in.consumer().acknowledged() == 20, "acknowledged " + in.consumer().acknowledged());
            check(wrong, in.state() == ChannelState.FAILED, "state " + in.state());
            Throwable f = in.failure();
            String named = "while frames 21.." + checker.last + " were with its listener";
            check(wrong, f != null && reports(f).stream().anyMatch(m -> m.contains(named)),
                    "the failure, or what was added to it, says '" + named + "': " + (f == null ? null : reports(f)));
            return wrong;
        }
    }

    /** One run of a scenario in its own share directory: what went wrong in it (empty: it held). */
    interface Scenario {
        List<String> run(Path dir) throws Exception;
    }

    /** What went wrong over the runs of one scenario. */
    static final class Runs {
        private final String scenario;
        private final List<String> wrong = new ArrayList<>();
        private int runs;
        private int bad;

        Runs(String scenario) {
            this.scenario = scenario;
        }

        /** {@link #RUNS} runs of {@code scenario}, each in a directory of its own under {@code tmp}; every one must hold. */
        static void each(String name, Path tmp, Scenario scenario) throws Exception {
            Runs runs = new Runs(name);
            for (int run = 0; run < RUNS; run++) {
                runs.add(scenario.run(tmp.resolve("share-" + run)));
            }
            runs.assertAllHeld();
        }

        void add(List<String> run) {
            runs++;
            if (!run.isEmpty()) {
                bad++;
                wrong.add("run " + runs + ": " + run);
            }
        }

        void assertAllHeld() {
            System.out.println(scenario + ": " + bad + " of " + runs + " runs went wrong" + (wrong.isEmpty() ? "" : ": " + wrong));
            assertThat(wrong).as(scenario + ", " + bad + " of " + runs + " runs").isEmpty();
        }
    }

    static void check(List<String> wrong, boolean held, String otherwise) {
        if (!held) {
            wrong.add(otherwise);
        }
    }

    /** The listener: {@code checker}, holding frame {@code at} (after checking it) until released. */
    record Holding(FrameChecker checker, long at, CountDownLatch holding, CountDownLatch release) implements FrameHandler {
        @Override
        public void onFrame(Frame frame) throws Exception {
            checker.onFrame(frame);
            if (frame.sequence() == at) {
                holding.countDown();
                release.await(60, TimeUnit.SECONDS);
            }
        }
    }

    /** The messages of {@code failure}'s cause and of what was added to it. */
    static List<String> reports(Throwable failure) {
        List<String> out = new ArrayList<>();
        out.add(String.valueOf(failure.getMessage()));
        Arrays.stream(failure.getSuppressed()).forEach(s -> out.add(String.valueOf(s.getMessage())));
        return out;
    }

    /** The producer's drop of {@code in}'s seat: the compare-and-set of its live epoch to 0, through a mapping of our own. */
    static void drop(Path dir, PublishChannel ch, AttachedChannel in) throws IOException {
        SharedLayout layout = new SharedLayout(ch.spec().geometry(), ch.spec().maxPublishBatch(), ChannelShare.DEFAULT_SEATS);
        try (FileChannel f = FileChannel.open(SharedDirectory.region(dir, "frames"), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer map = f.map(FileChannel.MapMode.READ_WRITE, 0, f.size());
            int live = (int) (layout.seatLine(in.seat()) + SharedLayout.S_LIVE);
            assertThat(WORDS.compareAndSet(map, live, in.epoch(), 0L)).as("the seat held the attachment's epoch").isTrue();
        }
    }

    /** Claims the next frame, which must be {@code expected}, and writes its payload into its slot, holding the claim. */
    static long heldClaimWithForeignPayload(PublishChannel ch, long expected) {
        long seq = ch.claim(30, TimeUnit.SECONDS);
        assertThat(seq).as("the held claim").isEqualTo(expected);
        FrameChecker.write(ch.buffer(), seq, MAX_LENGTH);
        return seq;
    }

    static FrameChecker checker(long startsAfter) {
        FrameChecker c = new FrameChecker(MAX_LENGTH);
        c.last = startsAfter;
        return c;
    }

}

package io.seqlink.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.ChildJvm;
import io.seqlink.testing.FrameChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared channel across two JVMs on the emulated backend: checksummed frames crossing the process boundary with
 * none lost, duplicated or corrupt; a consumer process killed ({@code kill -9}) or stopped ({@code SIGSTOP}) mid-stream
 * is dropped and the producer's backpressure releases, and a new consumer process re-attaches with a new epoch from
 * where the producer is; a producer process killed or stopped mid-stream turns the attached channel FAILED within the
 * stall timeout, and a restarted producer is attached to again. Every wait ends early on success (deadlines of 60 s).
 */
class TwoProcessChannelTest {

    /** 10^6 by default: the count ({@code -Dseqlink-build.ipc.frames} changes it). */
    static final long FRAMES = Long.getLong("seqlink-build.ipc.frames", 1_000_000);
    static final Duration LONG = Duration.ofSeconds(60);
    static final Duration STALL = Duration.ofSeconds(2);
    static final int SLOTS = 256;
    static final String TEXT = "a secret the two processes share";
    static final SharedSecret SECRET = SharedSecret.of(TEXT, "test.secret");

    @TempDir
    Path tmp;
    Path dir;
    Path secretFile;

    @BeforeEach
    void files() throws Exception {
        dir = tmp.resolve("share");
        secretFile = tmp.resolve("secret");
        Files.writeString(secretFile, TEXT);
    }

    /** The runtime of the test JVM's side; the child JVM's side runs on the same backend ({@link #childOptions}). */
    SeqlinkRuntime runtime() {
        return SharedPeer.runtime(SharedPeer.EMULATED);
    }

    /** The child JVM's options: which backend its side runs on. */
    List<String> childOptions() {
        return List.of("-D" + SharedPeer.BACKEND + "=" + SharedPeer.EMULATED);
    }

    private ChildJvm child(String name, String... args) throws Exception {
        return ChildJvm.start(name, Path.of("target", "child-jvms"), Map.of(), childOptions(), SharedPeer.class, args);
    }

    PublishChannel share(SeqlinkRuntime rt, String name) {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder(name).producer(0).slots(SLOTS).slotBytes(Frames.MAX_LENGTH)
                .stallTimeout(STALL).share(ChannelShare.of(dir, SECRET)).build());
        rt.start();
        return ch;
    }

    ChildJvm consumer(String name, String channel) throws Exception {
        ChildJvm c = child(name, "consume", dir.toString(), channel, secretFile.toString());
        c.awaitLine("ATTACHED", LONG);
        return c;
    }

    ChildJvm producer(String name, String channel) throws Exception {
        ChildJvm p = child(name, "produce", dir.toString(), channel, secretFile.toString(), Long.toString(STALL.toMillis()),
                Integer.toString(SLOTS));
        p.awaitLine("READY", LONG);
        return p;
    }

    static long start(ChildJvm c) {
        return Long.parseLong(ChildJvm.field(c.awaitLine("ATTACHED", LONG), "start"));
    }

    static long epoch(ChildJvm c) {
        return Long.parseLong(ChildJvm.field(c.awaitLine("ATTACHED", LONG), "epoch"));
    }

    static void assertClean(Map<String, String> s) {
        assertThat(ChildJvm.number(s, "gaps")).as("frames lost, status " + s).isZero();
        assertThat(ChildJvm.number(s, "outOfOrder")).as("frames duplicated or out of order, status " + s).isZero();
        assertThat(ChildJvm.number(s, "corrupt")).as("frames corrupt, status " + s).isZero();
    }

    @Test
    void aMillionChecksummedFramesCrossTheProcessBoundary() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "million");
            try (ChildJvm c = consumer("ipc-million-consumer", "million")) {
                assertThat(start(c)).isZero();
                Frames.Publisher publisher = new Frames.Publisher(ch);
                long began = System.nanoTime();
                Map<String, String> s = allDelivered(ch, c, publisher, FRAMES);
                double seconds = (System.nanoTime() - began) / 1e9;
                System.out.printf("%d frames of up to %d B across the process boundary in %.1f s (%.0f frames/s)%n", FRAMES,
                        Frames.MAX_LENGTH, seconds, FRAMES / seconds);
                assertThat(ChildJvm.number(s, "latencyCount")).as("frames the consumer process timed from their publish "
                        + "(the region's publish times), status " + s).isPositive();
                stop(publisher, c);
            }
        }
    }

    /**
     * Publishes {@code frames} frames, the first ones of the channel, and waits until consumer process {@code c}
     * acknowledged them all: each delivered once, in order and intact, and the producer's seat shows them acknowledged.
     * Returns the consumer's status then.
     */
    static Map<String, String> allDelivered(PublishChannel ch, ChildJvm c, Frames.Publisher publisher, long frames) {
        publisher.more(frames);
        Map<String, String> s = c.awaitStatus(m -> ChildJvm.number(m, "acked") == frames, Duration.ofSeconds(120),
                "acked=" + frames);
        assertThat(ChildJvm.number(s, "delivered")).as("status " + s).isEqualTo(frames);
        assertClean(s);
        assertThat(ch.snapshot().attached()).singleElement().satisfies(a -> assertThat(a.acknowledged())
                .as("what reached the seat").isEqualTo(frames));
        return s;
    }

    /** Stops the publisher, then the consumer process, which prints CLOSED as it ends. */
    static void stop(Frames.Publisher publisher, ChildJvm c) throws Exception {
        publisher.stop();
        c.command("stop");
        c.awaitLine("CLOSED", LONG);
    }

    /**
     * A batch listener in a consumer process reads its rounds through the attached channel's checked path: every frame
     * arrives once, in order and intact, and a batch the listener fails comes back whole (the same frames) on the retry.
     * The listener fails every 97th call, so the producer runs ahead during the retry's back-off and later rounds hold
     * several frames.
     */
    @Test
    void checksummedFramesReachABatchListenerInAConsumerProcessAndAFailedBatchComesBackWhole() throws Exception {
        long frames = 100_000;
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "batches");
            try (ChildJvm c = child("ipc-batch-consumer", "consume-batches", dir.toString(), "batches", secretFile.toString(), "97")) {
                assertThat(start(c)).isZero();
                Frames.Publisher publisher = new Frames.Publisher(ch);
                Map<String, String> s = allDelivered(ch, c, publisher, frames);
                assertThat(ChildJvm.number(s, "thrown")).as("batches the listener failed once, status " + s).isPositive();
                assertThat(ChildJvm.number(s, "retryMismatches")).as("retries that came back with other frames, status " + s)
                        .isZero();
                assertThat(ChildJvm.number(s, "largest")).as("the largest batch, status " + s).isGreaterThan(1);
                stop(publisher, c);
            }
        }
    }

    /** 10^5 by default ({@code -Dseqlink-build.ipc.deviceFrames} changes it). */
    static final long DEVICE_FRAMES = Long.getLong("seqlink-build.ipc.deviceFrames", 100_000);

    /** A consumer process whose listener is a device listener checksumming frames up to {@code capacity}. */
    ChildJvm deviceConsumer(String name, String channel, long capacity) throws Exception {
        ChildJvm c = child(name, "consume-device", dir.toString(), channel, secretFile.toString(), Long.toString(capacity));
        c.awaitLine("ATTACHED", LONG);
        return c;
    }

    @Test
    void checksummedFramesReachADeviceListenerInAConsumerProcess() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "ondevice");
            try (ChildJvm c = deviceConsumer("ipc-device-consumer", "ondevice", DEVICE_FRAMES)) {
                assertThat(start(c)).isZero();
                Frames.Publisher publisher = new Frames.Publisher(ch, Frames.MAX_LENGTH);
                long began = System.nanoTime();
                allDelivered(ch, c, publisher, DEVICE_FRAMES);
                double seconds = (System.nanoTime() - began) / 1e9;
                System.out.printf("%d frames of %d B to a device listener across the process boundary in %.1f s (%.0f frames/s)%n",
                        DEVICE_FRAMES, Frames.MAX_LENGTH, seconds, DEVICE_FRAMES / seconds);
                stop(publisher, c);
            }
        }
    }

    @Test
    void aConsumerWithADeviceListenerKilledMidStreamIsDroppedWithinTheStallTimeoutAndANewOneReattaches() throws Exception {
        long first = 60_000;
        long second = 30_000;
        long capacity = first + second;
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "killdev");
            Frames.Publisher publisher = new Frames.Publisher(ch, Frames.MAX_LENGTH);
            try (ChildJvm c = deviceConsumer("ipc-killed-device-consumer", "killdev", capacity)) {
                publisher.more(first - 20L * SLOTS); // only the consumer's pace holds it back
                Map<String, String> s = c.awaitStatus(m -> ChildJvm.number(m, "acked") >= 20_000, LONG, "acked >= 20000");
                assertClean(s);
                c.kill(); // kill -9 mid-stream
                long atKill = ch.snapshot().published();
                long killed = System.nanoTime();
                // a fast consumer may have taken nearly every frame asked for before the kill lands: the last 20 laps
                // are asked for after it, so only the dead consumer's seat can hold them back
                publisher.more(20L * SLOTS);
                long past = atKill + 20L * SLOTS;
                await(() -> publisher.published.get() >= past, "the producer published " + past + " after the kill, is at "
                        + publisher.published.get());
                Duration held = Duration.ofNanos(System.nanoTime() - killed);
                System.out.println("the producer went " + 20 * SLOTS + " frames past the killed consumer " + held.toMillis()
                        + " ms after the kill");
                assertThat(held).as("the killed consumer held the producer back at most its stall timeout (and 1 s of this "
                        + "machine's scheduling)").isLessThan(STALL.plusSeconds(1));
            }
            await(() -> publisher.published.get() == first, "the first " + first + " frames published");
            try (ChildJvm again = deviceConsumer("ipc-reattached-device-consumer", "killdev", capacity)) {
                long start = start(again);
                assertThat(epoch(again)).as("a new epoch").isEqualTo(2);
                assertThat(start).as("it starts where the producer was as it attached").isEqualTo(first);
                publisher.more(second);
                Map<String, String> s = again.awaitStatus(m -> ChildJvm.number(m, "acked") == first + second, LONG,
                        "acked = " + (first + second));
                assertClean(s); // gaps count from start: every frame after it, once, in order, intact
                assertThat(ChildJvm.number(s, "delivered")).isEqualTo(second);
                again.command("stop");
                again.awaitLine("CLOSED", LONG);
            }
            publisher.stop();
        }
    }

    @Test
    void aConsumerKilledMidStreamIsDroppedTheProducerGoesOnAndANewOneReattachesFromWhereTheProducerIs() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "killc");
            Frames.Publisher publisher = new Frames.Publisher(ch);
            long atKill;
            try (ChildJvm c = consumer("ipc-killed-consumer", "killc")) {
                publisher.more(Long.MAX_VALUE / 2); // without end: only the consumer's pace holds it back
                Map<String, String> s = c.awaitStatus(m -> ChildJvm.number(m, "acked") >= 20_000, LONG, "acked >= 20000");
                assertClean(s);
                c.kill(); // kill -9 mid-stream
                atKill = ch.snapshot().published();
            }
            // dropped (its connection ended, or at the latest after the stall timeout): the producer goes far past the
            // slots the dead consumer held
            long past = atKill + 20L * SLOTS;
            await(() -> publisher.published.get() > past, "the producer published past " + past + " after the kill, is at "
                    + publisher.published.get());
            try (ChildJvm again = consumer("ipc-reattached-consumer", "killc")) {
                long start = start(again);
                assertThat(epoch(again)).as("a new epoch").isEqualTo(2);
                assertThat(start).as("it starts where the producer was as it attached").isGreaterThan(past);
                again.awaitStatus(m -> ChildJvm.number(m, "acked") >= start + 20_000, LONG, "acked >= start + 20000");
                // the counts are compared once nothing is in flight: the status line reads the listener's counts one
                // after another while it writes them, so with frames flowing "last" can be one frame ahead of "delivered"
                publisher.stop();
                long end = ch.snapshot().published();
                Map<String, String> s = again.awaitStatus(m -> ChildJvm.number(m, "acked") == end, LONG, "acked = " + end);
                assertClean(s); // gaps count from start: every frame after it, once, in order, intact
                assertThat(ChildJvm.number(s, "last")).isEqualTo(end);
                assertThat(ChildJvm.number(s, "delivered")).isEqualTo(end - start);
                again.command("stop");
                again.awaitLine("CLOSED", LONG);
            }
            publisher.stop();
        }
    }

    @Test
    void aStoppedConsumerIsDroppedAfterTheStallTimeoutAndTheProducerGoesOn() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = share(rt, "stopc");
            Frames.Publisher publisher = new Frames.Publisher(ch);
            try (ChildJvm c = consumer("ipc-stopped-consumer", "stopc")) {
                publisher.more(Long.MAX_VALUE / 2);
                assertClean(c.awaitStatus(m -> ChildJvm.number(m, "acked") >= 5_000, LONG, "acked >= 5000"));
                c.signal("STOP"); // its socket stays open: only its silent heartbeat tells
                long atStop = ch.snapshot().published();
                long past = atStop + 20L * SLOTS;
                await(() -> publisher.published.get() > past, "the producer published past " + past + " with the consumer "
                        + "stopped, is at " + publisher.published.get());
                c.signal("CONT"); // it finds itself dropped and fails (what it read after the drop is no longer guarded)
                c.awaitStatus(m -> "FAILED".equals(m.get("state")), LONG, "state=FAILED");
            }
            publisher.stop();
        }
    }

    /** Runs of the stopped-between-rounds test below ({@code -Dseqlink-build.ipc.dropRuns=N}). */
    static final int DROP_RUNS = Integer.getInteger("seqlink-build.ipc.dropRuns", 1);

    /**
     * {@code SIGSTOP} of a consumer process with nothing left to read, so the stop lands between its rounds: dropped
     * after the stall timeout, the producer publishes a lap of its ring and holds a claim of the next frame open, its
     * payload written into the slot of the first frame the stopped consumer will read (whose stamp stays that frame's).
     * Resumed, the consumer must deliver none of it (it checks its seat as a round begins) and fail saying it was
     * dropped. Each run counts what the consumer delivered after the stop.
     */
    @Test
    void aConsumerStoppedBetweenRoundsAndDroppedDeliversNothingTheProducerWroteAfterTheDrop() throws Exception {
        List<String> wrong = new java.util.ArrayList<>();
        for (int run = 1; run <= DROP_RUNS; run++) {
            try (SeqlinkRuntime rt = runtime()) {
                String name = "idle" + run;
                PublishChannel ch = share(rt, name);
                Frames.Publisher publisher = new Frames.Publisher(ch);
                try (ChildJvm c = consumer("ipc-idle-stopped-consumer-" + run, name)) {
                    publisher.more(1_000);
                    assertClean(c.awaitStatus(m -> ChildJvm.number(m, "acked") == 1_000, LONG, "acked=1000"));
                    c.signal("STOP"); // nothing left to read: it stops between rounds
                    await(() -> ch.attachedConsumers().isEmpty(), "the stopped consumer dropped after the stall timeout");
                    publisher.more(SLOTS); // the dropped consumer no longer holds the producer back: a whole lap
                    await(() -> publisher.published.get() == 1_000 + SLOTS, "a lap published after the drop");
                    long held = ch.claim(30, java.util.concurrent.TimeUnit.SECONDS); // the publisher is idle: ours
                    assertThat(held).as("the next frame, in frame 1001's slot").isEqualTo(1_001 + SLOTS);
                    FrameChecker.write(ch.buffer(), held, Frames.MAX_LENGTH);
                    c.signal("CONT");
                    String failure = c.awaitLine("FAILURE", LONG);
                    await(() -> c.linesContaining("state=FAILED").size() >= 3, "three status lines after the failure");
                    Map<String, String> s = c.status();
                    ch.abandon();
                    long after = ChildJvm.number(s, "delivered") - 1_000;
                    if (after != 0 || ChildJvm.number(s, "corrupt") != 0 || ChildJvm.number(s, "gaps") != 0
                            || !failure.contains("the producer dropped this consumer")) {
                        wrong.add("run " + run + ": " + after + " frames delivered after the stop, status " + s + ", " + failure);
                    }
                    System.out.println("run " + run + ": " + after + " frames delivered after the stop (" + ChildJvm.number(s, "corrupt")
                            + " corrupt), " + failure);
                }
                publisher.stop();
            }
        }
        System.out.println(wrong.size() + " of " + DROP_RUNS + " runs delivered frames after the drop");
        assertThat(wrong).as(wrong.size() + " of " + DROP_RUNS + " runs delivered frames after the drop").isEmpty();
    }

    @Test
    void theProducersSnapshotAndDrainReportShowTheConsumerProcessAndItsDropWhileTheDrainWaits() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("reported").producer(0).slots(SLOTS)
                    .slotBytes(Frames.MAX_LENGTH).stallTimeout(Duration.ofSeconds(60))
                    .share(ChannelShare.of(dir, SECRET).withHeartbeat(Duration.ofMillis(100))).build());
            rt.start();
            Frames.Publisher publisher = new Frames.Publisher(ch);
            try (ChildJvm c = consumer("ipc-reported-consumer", "reported")) {
                publisher.more(1_000);
                c.awaitStatus(m -> ChildJvm.number(m, "acked") == 1_000, LONG, "acked=1000");
                assertThat(ch.snapshot().attached()).singleElement().satisfies(a -> {
                    assertThat(a.pid()).isEqualTo(c.pid());
                    assertThat(a.acknowledged()).isEqualTo(1_000);
                    assertThat(a.lag()).isZero();
                });
                c.signal("STOP"); // its heartbeat stands still; the 60 s stall timeout keeps it attached
                await(() -> ch.snapshot().attached().get(0).heartbeatAgeNanos() >= Duration.ofSeconds(1).toNanos(),
                        "the stopped consumer's heartbeat age shown past 1 s, is " + ch.snapshot().attached());
                publisher.more(100); // fits the ring: nothing waits for the stopped consumer yet
                await(() -> publisher.published.get() == 1_100, "1100 published");
                assertThat(ch.snapshot().attached().get(0).lag()).isEqualTo(100);
                java.util.concurrent.CompletableFuture<io.seqlink.channel.DrainReport> drain =
                        java.util.concurrent.CompletableFuture.supplyAsync(() -> ch.drainAndClose(LONG));
                await(() -> ch.state() == ChannelState.DRAINING, "the drain began");
                Thread.sleep(1_000); // it reads its target and the attached processes as it begins
                c.kill(); // kill -9 while the drain waits for it: dropped when its connection ends
                io.seqlink.channel.DrainReport report = drain.get(120, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(report.timedOut()).as(report.describe()).isFalse();
                assertThat(report.clean()).isFalse();
                assertThat(report.attached()).singleElement().satisfies(a -> {
                    assertThat(a.pid()).isEqualTo(c.pid());
                    assertThat(a.dropped()).isTrue();
                    assertThat(a.acknowledged()).isEqualTo(1_000);
                    assertThat(a.unacknowledged()).isEqualTo(100);
                });
                assertThat(report.describe()).contains("dropped while the drain waited");
            }
            publisher.stop();
        }
    }

    @Test
    void aProducerKilledMidStreamTurnsTheAttachedChannelFailedAndARestartedOneIsAttachedAgain() throws Exception {
        try (SeqlinkRuntime rt = runtime()) {
            FrameChecker checker;
            try (ChildJvm p = producer("ipc-killed-producer", "killp")) {
                AttachedChannel in = rt.attachChannel(AttachSpec.of("killp", dir, SECRET));
                checker = new FrameChecker(Frames.MAX_LENGTH);
                checker.last = in.startsAfter();
                in.consumer().subscribe(checker);
                rt.start();
                p.command("publish " + Long.MAX_VALUE / 2);
                await(() -> in.consumer().acknowledged() >= 20_000, "acknowledged >= 20000");
                p.kill(); // kill -9 mid-stream
                await(() -> in.state() == ChannelState.FAILED, "the attached channel FAILED after the producer's kill");
                assertThat(in.failure()).hasMessageContaining("the connection to the producer ended");
                long acked = in.consumer().acknowledged();
                assertThat(checker.gaps + checker.outOfOrder + checker.corrupt).isZero();
                assertThat(checker.delivered).isEqualTo(acked - in.startsAfter());
                in.close();
            }
            try (ChildJvm p = producer("ipc-restarted-producer", "killp")) { // its leftover files are cleared
                AttachedChannel in = rt.attachChannel(AttachSpec.of("killp", dir, SECRET));
                assertThat(in.startsAfter()).isZero();
                FrameChecker again = new FrameChecker(Frames.MAX_LENGTH);
                in.consumer().subscribe(again);
                p.command("publish 10000");
                await(() -> in.consumer().acknowledged() == 10_000, "acknowledged 10000 from the restarted producer");
                assertThat(again.delivered).isEqualTo(10_000);
                assertThat(again.gaps + again.outOfOrder + again.corrupt).isZero();
                p.command("stop"); // an orderly close: the attached channel fails, saying so
                await(() -> in.state() == ChannelState.FAILED, "FAILED after the producer closed");
                assertThat(in.failure()).hasMessageContaining("the producer closed the channel");
                in.close();
            }
        }
    }

    @Test
    void aStoppedProducerTurnsTheAttachedChannelFailedWithinTheStallTimeout() throws Exception {
        try (SeqlinkRuntime rt = runtime(); ChildJvm p = producer("ipc-stopped-producer", "stopp")) {
            AttachedChannel in = rt.attachChannel(AttachSpec.of("stopp", dir, SECRET));
            in.consumer().subscribe(new FrameChecker(Frames.MAX_LENGTH));
            rt.start();
            p.command("publish 1000");
            await(() -> in.consumer().acknowledged() == 1_000, "acknowledged 1000");
            p.signal("STOP"); // its socket stays open: only its silent heartbeat tells
            long stopped = System.nanoTime();
            await(() -> in.state() == ChannelState.FAILED, "FAILED with the producer stopped");
            assertThat(in.failure()).hasMessageContaining("heartbeat has not moved");
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).as("not before the stall timeout").isGreaterThanOrEqualTo(
                    STALL.minusMillis(500));
            p.signal("CONT");
            in.close();
        }
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + LONG + ": " + what);
            }
            Thread.sleep(5);
        }
    }
}

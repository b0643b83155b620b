package io.seqlink.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.FrameChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared channel and an attached one in one JVM (two runtimes, two emulated backends, nothing shared but the
 * region file and the socket): the protocol itself, before the two-JVM tests take it across a process boundary.
 */
class SharedChannelTest {

    static final SharedSecret SECRET = SharedSecret.of("a secret of at least sixteen bytes", "test.secret");
    static final int MAX_LENGTH = 48;

    @TempDir
    Path tmp;

    static SeqlinkRuntime runtime() {
        return SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
    }

    static ChannelSpec shared(String name, Path dir, Duration stall) {
        return ChannelSpec.builder(name).producer(0).slots(64).slotBytes(MAX_LENGTH).stallTimeout(stall)
                .share(ChannelShare.of(dir, SECRET)).build();
    }

    static void publish(PublishChannel ch, long from, long to) {
        for (long s = from; s <= to; s++) {
            long seq = ch.claim(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(seq).as("claim of frame " + s).isEqualTo(s);
            ch.commit(FrameChecker.write(ch.buffer(), seq, MAX_LENGTH));
            ch.publish();
        }
    }

    @Test
    void anAttachedConsumerGetsEveryFrameAfterItsStartOnceInOrderIntact() throws Exception {
        Path dir = tmp.resolve("share");
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared("frames", dir, Duration.ofSeconds(30)));
            producer.start();
            publish(ch, 1, 10); // before anyone attached: nobody gates, nobody gets these
            assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
            assertThat(Files.getPosixFilePermissions(dir.resolve("frames.shm"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.getPosixFilePermissions(dir.resolve("frames.sock"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));

            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            assertThat(in.startsAfter()).isEqualTo(10);
            FrameChecker checker = new FrameChecker(MAX_LENGTH);
            checker.last = in.startsAfter();
            in.consumer().subscribe(checker);
            consumer.start();
            publish(ch, 11, 5_000); // many laps of a 64-slot ring: the attached consumer gates the producer
            await(() -> in.consumer().acknowledged() == 5_000, "acknowledged 5000, is " + in.consumer().acknowledged());
            assertThat(checker.delivered).isEqualTo(4_990);
            assertThat(checker.gaps + checker.corrupt + checker.outOfOrder).isZero();
            assertThat(in.state()).isEqualTo(ChannelState.OPEN);
            assertThat(ch.attachedConsumers()).singleElement().satisfies(a -> {
                assertThat(a.seat()).isZero();
                assertThat(a.epoch()).isEqualTo(1);
                assertThat(a.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(a.startsAfter()).isEqualTo(10);
                assertThat(a.acknowledged()).isEqualTo(5_000);
                assertThat(a.lag()).isZero();
            });
            assertThat(ch.snapshot().attached()).as("the producer's snapshot shows the attached process")
                    .singleElement().satisfies(a -> {
                        assertThat(a.pid()).isEqualTo(ProcessHandle.current().pid());
                        assertThat(a.acknowledged()).isEqualTo(5_000);
                        assertThat(a.heartbeatAgeNanos()).isLessThan(Duration.ofSeconds(30).toNanos());
                    });
            in.close();
            await(() -> ch.attachedConsumers().isEmpty(), "the closed attachment's seat dropped");
        }
    }

    @Test
    void theProducersDrainWaitsForItsAttachedConsumers() throws Exception {
        Path dir = tmp.resolve("share");
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared("drained", dir, Duration.ofSeconds(30)));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("drained", dir, SECRET));
            FrameChecker checker = new FrameChecker(MAX_LENGTH);
            in.consumer().subscribe(frame -> {
                checker.onFrame(frame);
                java.util.concurrent.locks.LockSupport.parkNanos(200_000); // a slow listener: the ring is full as the drain begins
            });
            consumer.start();
            publish(ch, 1, 1_000);
            io.seqlink.channel.DrainReport report = ch.drainAndClose(Duration.ofSeconds(60));
            assertThat(report.timedOut()).isFalse();
            assertThat(report.attached()).as("the attached process, in the report").singleElement().satisfies(a -> {
                assertThat(a.seat()).isZero();
                assertThat(a.epoch()).isEqualTo(in.epoch());
                assertThat(a.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(a.acknowledged()).isEqualTo(1_000);
                assertThat(a.unacknowledged()).isZero();
                assertThat(a.dropped()).isFalse();
            });
            assertThat(report.clean()).isTrue();
            assertThat(report.describe()).contains("acknowledged by 1 attached process");
            assertThat(in.consumer().acknowledged()).as("acknowledged by the attached consumer when the drain returned")
                    .isEqualTo(1_000);
            await(() -> in.state() == ChannelState.FAILED, "FAILED once the producer closed");
            assertThat(in.failure()).hasMessageContaining("the producer closed the channel");
            assertThat(checker.delivered).isEqualTo(1_000);
            assertThat(checker.gaps + checker.corrupt + checker.outOfOrder).isZero();
            in.close();
        }
    }

    @Test
    void aDrainThatGivesUpOnAnAttachedConsumerReportsWhatItDidNotAcknowledge() throws Exception {
        Path dir = tmp.resolve("share");
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared("held", dir, Duration.ofSeconds(30)));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("held", dir, SECRET));
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
            in.consumer().subscribe(frame -> {
                if (frame.sequence() == 6) {
                    holding.countDown();
                    release.await(60, java.util.concurrent.TimeUnit.SECONDS); // holds frame 6 until the drain gave up
                }
            });
            consumer.start();
            publish(ch, 1, 20);
            assertThat(holding.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the listener holds frame 6").isTrue();
            long acked = in.consumer().acknowledged(); // 0 or 5: a round acknowledges once its frames are handled
            assertThat(acked).isLessThan(6);
            assertThat(ch.snapshot().attached()).singleElement().satisfies(a -> assertThat(a.lag()).isEqualTo(20 - acked));
            assertThat(ch.snapshot().maxLag()).as("the attached process's lag counts").isEqualTo(20 - acked);
            io.seqlink.channel.DrainReport report = ch.drainAndClose(Duration.ofSeconds(1));
            release.countDown();
            assertThat(report.timedOut()).isTrue();
            assertThat(report.clean()).isFalse();
            assertThat(report.totalUnacknowledgedByAttached()).isEqualTo(20 - acked);
            assertThat(report.attached()).singleElement().satisfies(a -> {
                assertThat(a.acknowledged()).isEqualTo(acked);
                assertThat(a.unacknowledged()).isEqualTo(20 - acked);
                assertThat(a.dropped()).isFalse();
            });
            assertThat(report.describe()).contains("unacknowledged by attached process " + ProcessHandle.current().pid()
                    + " (seat 0, epoch 1): " + (20 - acked)).contains("the drain timed out");
            in.close();
        }
    }

    /**
     * No publish in this process announces an attached channel's frames (the producer's bell rings in its own process),
     * so the consumer's device loop must not doze while the attached port listens: a dozing loop would see a frame only
     * at the watchdog's safety-net look, once a second.
     */
    @Test
    void theAttachedConsumersLoopDoesNotDozeOnFramesNoPublishHereAnnounces() throws Exception {
        Path dir = tmp.resolve("share");
        try (SeqlinkRuntime producer = runtime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared("quiet", dir, Duration.ofSeconds(30)));
            producer.start();
            AttachedChannel in = consumer.attachChannel(AttachSpec.of("quiet", dir, SECRET));
            FrameChecker checker = new FrameChecker(MAX_LENGTH);
            in.consumer().subscribe(checker);
            consumer.start();
            publish(ch, 1, 1);
            await(() -> in.consumer().acknowledged() == 1, "frame 1 acknowledged");
            Thread.sleep(1_000); // ten times the quiet period after which a loop with in-process producers dozes
            assertThat(consumer.launcher().loopsDozing()).as("the attached consumer's loop, a second after its last frame").isFalse();
            publish(ch, 2, 2);
            await(() -> in.consumer().acknowledged() == 2, "frame 2 acknowledged");
            assertThat(checker.delivered).isEqualTo(2);
            in.close();
        }
    }

    static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(5);
        }
    }
}

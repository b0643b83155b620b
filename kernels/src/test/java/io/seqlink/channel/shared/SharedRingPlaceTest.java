package io.seqlink.channel.shared;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import io.seqlink.security.SharedSecret;
import io.seqlink.testing.FrameChecker;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a shared channel's ring lives, seen from the region file (the emulated backend here, the CUDA one in
 * {@code CudaSharedRingPlaceGpuTest}): with no consumer of the producer's process, or only
 * host listeners there, the region's ring IS the channel's ring (a frame the host writes is in the region's slot before
 * it is published: nothing is pushed); with a device consumer in the producer's process the ring stays in device memory
 * and the publish step pushes every frame into the region. Either way, the consumer processes and the local consumers
 * get every frame.
 */
class SharedRingPlaceTest {

    static final SharedSecret SECRET = SharedSecret.of("a secret of at least sixteen bytes", "test.secret");
    static final int MAX_LENGTH = 48;
    static final int SLOTS = 64;
    static final long FRAMES = 5_000;
    private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    @TempDir
    Path tmp;
    /** The share directory. */
    Path dir;

    @BeforeEach
    void shareDirectory() throws IOException {
        dir = tmp.resolve("share");
    }

    /** The consumer process's runtime (an emulated backend: it maps the region as host memory, whatever wrote it). */
    static SeqlinkRuntime runtime() {
        return SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
    }

    /** The producer's runtime. */
    SeqlinkRuntime producerRuntime() {
        return runtime();
    }

    /** The device of the consumer in the producer's process. */
    int localConsumer() {
        return 1;
    }

    static ChannelSpec.Builder shared(Path dir) {
        return ChannelSpec.builder("frames").producer(0).slots(SLOTS).slotBytes(MAX_LENGTH).stallTimeout(Duration.ofSeconds(30))
                .share(ChannelShare.of(dir, SECRET));
    }

    @Test
    void withoutAConsumerInTheProducersProcessTheHostWritesTheFrameIntoTheRegionsSlotItself() throws Exception {
        try (SeqlinkRuntime producer = producerRuntime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared(dir).build());
            producer.start();
            Region region = Region.of(dir, ch);
            long seq = ch.claim(30, TimeUnit.SECONDS);
            int length = FrameChecker.write(ch.buffer(), seq, MAX_LENGTH);
            assertThat(region.payload(seq, length)).as("the frame is in the region's slot as the host wrote it, unpublished")
                    .isEqualTo(bytes(ch.buffer(), length));
            ch.commit(length);
            ch.publish();
            await(() -> region.published() == 1, "the region's publish_seq at 1, is " + region.published());
            assertThat(region.stamp(1)).isEqualTo(1);
            assertThat(region.length(1)).isEqualTo(length);

            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            FrameChecker remote = checker(in.startsAfter());
            in.consumer().subscribe(remote);
            consumer.start();
            publish(ch, 2, FRAMES); // many laps: the attached consumer gates the producer writing the slots it reads
            await(() -> in.consumer().acknowledged() == FRAMES, "acknowledged " + FRAMES + ", is " + in.consumer().acknowledged());
            assertIntact(remote, FRAMES - 1);
        }
    }

    @Test
    void withOnlyHostListenersInTheProducersProcessTheRingIsTheRegionsAndBothSidesGetEveryFrame() throws Exception {
        try (SeqlinkRuntime producer = producerRuntime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared(dir).consumers(localConsumer()).hostListeners(localConsumer()).build());
            FrameChecker local = checker(0);
            ch.consumer(localConsumer()).subscribe(local);
            producer.start();
            Region region = Region.of(dir, ch);
            long seq = ch.claim(30, TimeUnit.SECONDS);
            int length = FrameChecker.write(ch.buffer(), seq, MAX_LENGTH);
            assertThat(region.payload(seq, length)).as("written in place, in the region").isEqualTo(bytes(ch.buffer(), length));
            ch.commit(length);
            ch.publish();

            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            FrameChecker remote = checker(in.startsAfter());
            in.consumer().subscribe(remote);
            consumer.start();
            publishUntilBothAcknowledged(ch, in);
            assertIntact(local, FRAMES);
            assertIntact(remote, FRAMES - in.startsAfter());
        }
    }

    @Test
    void withADeviceConsumerInTheProducersProcessThePublishStepPushesEveryFrameIntoTheRegion() throws Exception {
        try (SeqlinkRuntime producer = producerRuntime(); SeqlinkRuntime consumer = runtime()) {
            PublishChannel ch = producer.openChannel(shared(dir).consumers(localConsumer()).build());
            AtomicLong onDevice = new AtomicLong();
            ch.consumer(localConsumer()).subscribeDevice(frames -> onDevice.addAndGet(frames.last() - frames.first() + 1));
            producer.start();
            Region region = Region.of(dir, ch);
            long seq = ch.claim(30, TimeUnit.SECONDS);
            int length = FrameChecker.write(ch.buffer(), seq, MAX_LENGTH);
            byte[] frame = bytes(ch.buffer(), length);
            ch.commit(length);
            assertThat(region.payload(seq, length)).as("not in the region before its publish: the ring is in device memory")
                    .containsOnly(0);
            ch.publish();
            await(() -> region.published() == 1, "the region's publish_seq at 1, is " + region.published());
            assertThat(region.payload(seq, length)).as("pushed by the publish step").isEqualTo(frame);
            assertThat(region.stamp(1)).isEqualTo(1);

            AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET));
            FrameChecker remote = checker(in.startsAfter());
            in.consumer().subscribe(remote);
            consumer.start();
            publishUntilBothAcknowledged(ch, in);
            assertThat(onDevice.get()).isEqualTo(FRAMES);
            assertIntact(remote, FRAMES - in.startsAfter());
        }
    }

    static FrameChecker checker(long startsAfter) {
        FrameChecker c = new FrameChecker(MAX_LENGTH);
        c.last = startsAfter;
        return c;
    }

    static void assertIntact(FrameChecker c, long frames) {
        assertThat(c.delivered).isEqualTo(frames);
        assertThat(c.gaps + c.corrupt + c.outOfOrder).isZero();
    }

    static void publish(PublishChannel ch, long from, long to) {
        for (long s = from; s <= to; s++) {
            long seq = ch.claim(30, TimeUnit.SECONDS);
            assertThat(seq).as("claim of frame " + s).isEqualTo(s);
            ch.commit(FrameChecker.write(ch.buffer(), seq, MAX_LENGTH));
            ch.publish();
        }
    }

    static byte[] bytes(ByteBuffer b, int length) {
        byte[] out = new byte[length];
        b.duplicate().position(0).get(out);
        return out;
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(5);
        }
    }

    /** The test's own mapping of the producer's region file, read as a consumer process reads it. */
    record Region(MappedByteBuffer map, SharedLayout layout) {

        static Region of(Path dir, PublishChannel ch) throws IOException {
            ChannelSpec spec = ch.spec();
            SharedLayout layout = new SharedLayout(spec.geometry(), spec.maxPublishBatch(), ChannelShare.DEFAULT_SEATS);
            try (FileChannel f = FileChannel.open(SharedDirectory.region(dir, spec.name()), StandardOpenOption.READ)) {
                assertThat(f.size()).isEqualTo(layout.regionBytes());
                return new Region(f.map(FileChannel.MapMode.READ_ONLY, 0, f.size()), layout);
            }
        }

        long published() {
            return (long) WORDS.getAcquire(map, SharedLayout.CONTROL + ControlBlock.PUBLISH_SEQ);
        }

        private long slot(long sequence) {
            RingGeometry g = layout.geometry();
            return layout.ring() + g.offsetOf(sequence);
        }

        long stamp(long sequence) {
            return (long) WORDS.getAcquire(map, (int) (slot(sequence) + SlotHeader.STAMP));
        }

        long length(long sequence) {
            return (long) WORDS.getAcquire(map, (int) (slot(sequence) + SlotHeader.LENGTH));
        }

        byte[] payload(long sequence, int length) {
            byte[] out = new byte[length];
            map.get((int) (slot(sequence) + SlotHeader.BYTES), out);
            return out;
        }
    }

    /** Frames 2 to {@link #FRAMES} published, awaited until the attached consumer and the local one acknowledged them all. */
    private void publishUntilBothAcknowledged(PublishChannel ch, AttachedChannel in) throws Exception {
        publish(ch, 2, FRAMES);
        await(() -> in.consumer().acknowledged() == FRAMES && ch.consumer(localConsumer()).acknowledged() == FRAMES,
                "both acknowledged " + FRAMES + ": attached " + in.consumer().acknowledged() + ", local "
                        + ch.consumer(localConsumer()).acknowledged());
    }
}

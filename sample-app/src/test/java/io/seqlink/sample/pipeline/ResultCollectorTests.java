package io.seqlink.sample.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.FramePattern;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ListenerContext;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The collector's end-to-end checks on hand-made results: a correct result passes, and each kind of
 * damage (in transit on either channel, a wrong computation, a lost or reordered frame, a result from
 * the wrong device) is caught and named, without throwing.
 */
class ResultCollectorTests {

    static final int PIXELS = 64;
    static final int CLASSES = 4;

    ReferenceModel model = new ReferenceModel(PIXELS, CLASSES, 0.5f, 0.25f, 7);
    PipelineStatistics stats;
    ResultCollector collector;

    @BeforeEach
    void setUp() {
        stats = new PipelineStatistics(16);
        Map<Integer, PipelineStatistics.DeviceStatistics> devices = new LinkedHashMap<>();
        devices.put(1, stats.device(1));
        devices.put(2, stats.device(2));
        devices.get(1).expectFrom(1);
        devices.get(2).expectFrom(2);
        collector = new ResultCollector(stats, model, devices, 1);
    }

    @Test
    void correctResultsInShardedOrderPass() {
        collector.collect(frame(result(1, 100, 1)), context(1));
        collector.collect(frame(result(2, 101, 2)), context(2));
        collector.collect(frame(result(3, 102, 1)), context(1));
        assertThat(stats.failures()).isZero();
        assertThat(stats.collected()).isEqualTo(3);
        assertThat(stats.verifiedFully()).isEqualTo(3);
        assertThat(stats.device(1).collected()).isEqualTo(2);
    }

    @Test
    void resultBytesChangedOnTheResultsChannelAreCaughtByTheOutputChecksum() {
        ByteBuffer r = result(1, 100, 1);
        r.putInt(FrameLayout.HEADER_BYTES + 4, r.getInt(FrameLayout.HEADER_BYTES + 4) ^ 1);
        collector.collect(frame(r), context(1));
        assertThat(stats.failures()).isEqualTo(1);
        assertThat(stats.lastFailure()).contains("result of frame 1 changed on its way from device 1");
    }

    @Test
    void frameChangedOnTheFramesChannelIsCaughtByTheReceivedChecksum() {
        ByteBuffer r = result(1, 100, 1);
        r.putLong(FrameLayout.RECEIVED_CHECKSUM, r.getLong(FrameLayout.RECEIVED_CHECKSUM) + 1);
        collector.collect(frame(r), context(1));
        assertThat(stats.lastFailure()).contains("frame 1 changed on its way to device 1");
    }

    @Test
    void aWrongButSelfConsistentComputationIsCaughtByTheHostRecomputation() {
        ByteBuffer r = result(1, 100, 1);
        r.putFloat(FrameLayout.HEADER_BYTES + 8, r.getFloat(FrameLayout.HEADER_BYTES + 8) + 1f);
        r.putLong(FrameLayout.OUTPUT_CHECKSUM, FramePattern.checksum(r, FrameLayout.HEADER_BYTES, 4 * CLASSES));
        collector.collect(frame(r), context(1));
        assertThat(stats.lastFailure()).contains("device 1 computed output 2 of frame 1");
        assertThat(stats.verifiedFully()).isZero();
    }

    @Test
    void aLostFrameIsCaughtByTheShardedOrder() {
        collector.collect(frame(result(1, 100, 1)), context(1));
        collector.collect(frame(result(5, 104, 1)), context(1)); // frame 3 never came back
        assertThat(stats.failures()).isEqualTo(1);
        assertThat(stats.lastFailure()).contains("returned frame 5 where frame 3 was due");
        collector.collect(frame(result(7, 106, 1)), context(1)); // in step again after the gap
        assertThat(stats.failures()).isEqualTo(1);
    }

    @Test
    void aResultFromAnotherDeviceIsCaught() {
        collector.collect(frame(result(1, 100, 2)), context(1));
        assertThat(stats.lastFailure()).contains("says it comes from device 2, but the channel's producer is device 1");
    }

    @Test
    void aResultOfTheWrongLengthIsCaught() {
        ByteBuffer r = result(1, 100, 1);
        collector.collect(frame(r.limit(r.limit() - 4)), context(1));
        assertThat(stats.lastFailure()).contains("bytes; expected " + FrameLayout.resultBytes(CLASSES));
    }

    @Test
    void checkingAResultAllocatesNothing() {
        int warm = 3000;
        int measured = 10000;
        Frame[] frames = new Frame[warm + measured];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = frame(result(1 + 2L * i, 100 + i, 1)); // device 1's share: frames 1, 3, 5, ...
        }
        ListenerContext context = context(1);
        for (int i = 0; i < warm; i++) {
            collector.collect(frames[i], context);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = warm; i < frames.length; i++) {
            collector.collect(frames[i], context);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(stats.failures()).as(stats.lastFailure()).isZero();
        assertThat(stats.verifiedFully()).isEqualTo(frames.length);
        // every check, including the host's full recomputation, runs on preallocated buffers
        assertThat(allocated).as("bytes allocated for %d results", measured).isLessThan(measured);
    }

    /** A result as inference device {@code device} would send it for frame {@code sequence} of {@code seed}. */
    ByteBuffer result(long sequence, long seed, int device) {
        ReferenceModel.Scratch ref = model.newScratch();
        ref.compute(seed);
        ByteBuffer b = ByteBuffer.allocate(FrameLayout.resultBytes(CLASSES)).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(FrameLayout.SEQUENCE, sequence);
        b.putLong(FrameLayout.SEED, seed);
        b.putLong(FrameLayout.PIXELS, PIXELS);
        b.putLong(FrameLayout.INPUT_CHECKSUM, ref.inputChecksum());
        b.putLong(FrameLayout.RECEIVED_CHECKSUM, ref.inputChecksum());
        b.putLong(FrameLayout.OUTPUT_CHECKSUM, ref.outputChecksum());
        b.putLong(FrameLayout.DEVICE, device);
        for (int r = 0; r < CLASSES; r++) {
            b.putFloat(FrameLayout.HEADER_BYTES + 4 * r, ref.output(r));
        }
        return b;
    }

    static Frame frame(ByteBuffer payload) {
        ByteBuffer view = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return new Frame() {
            public String channel() { return "results"; }
            public int consumerDevice() { return 0; }
            public long sequence() { return 1; }
            public int length() { return view.limit(); }
            public ByteBuffer payload() { return view; }
            public int attempt() { return 1; }
        };
    }

    static ListenerContext context(int producer) {
        return new ListenerContext() {
            public String listenerId() { return "collector"; }
            public String channel() { return "results-" + producer; }
            public int producer() { return producer; }
            public int device() { return 0; }
            public Transport transport() { return Transport.PEER_ATOMIC; }
            public int attempt() { return 1; }
        };
    }
}

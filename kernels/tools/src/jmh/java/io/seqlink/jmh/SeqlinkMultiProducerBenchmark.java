package io.seqlink.jmh;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Several producer threads offering {@code payload}-byte frames on one lossless channel to one
 * consumer device (its listener copies every payload out): the multi-producer claim's CAS, the
 * in-order publisher they share, and what contention costs. The score is the frames of all threads
 * together. Same channel and consumer as {@link SeqlinkEmulatedBenchmark}'s {@code offer} with one
 * consumer, which is the single-producer figure to compare with.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SeqlinkMultiProducerBenchmark {

    @Param({"64", "16384"})
    public int payload;

    private SeqlinkRuntime runtime;
    private PublishChannel channel;

    /** Each producer thread's own frame. */
    @State(Scope.Thread)
    public static class ProducerFrame {
        byte[] bytes;

        @Setup(Level.Trial)
        public void fill(SeqlinkMultiProducerBenchmark b) {
            bytes = new byte[b.payload];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i + Thread.currentThread().getId());
            }
        }
    }

    @Setup(Level.Trial)
    public void open() {
        runtime = SeqlinkEmulatedBenchmark.openRuntime(2);
        channel = runtime.openChannel(ChannelSpec.builder("multi").producer(0).consumers(1)
                .slots(SeqlinkEmulatedBenchmark.SLOTS).slotBytes(payload).maxPublishBatch(SeqlinkEmulatedBenchmark.BATCH).build());
        channel.consumer(1).subscribe(new SeqlinkEmulatedBenchmark.Reader(payload));
        runtime.start();
    }

    @TearDown(Level.Iteration)
    public void drain() {
        runtime.launcher().awaitDrained(Duration.ofSeconds(30));
    }

    @TearDown(Level.Trial)
    public void close() {
        runtime.close();
    }

    private long offer(ProducerFrame f) {
        long seq;
        while ((seq = channel.offer(f.bytes, 0, payload)) < 0) {
            Thread.yield(); // back-pressured, or the window is full of other threads' frames
        }
        return seq;
    }

    /** Two threads offering at once. */
    @Benchmark
    @Threads(2)
    public long offer2(ProducerFrame f) {
        return offer(f);
    }

    /** Four threads offering at once (on two cores: mostly contention and descheduled claim holders). */
    @Benchmark
    @Threads(4)
    public long offer4(ProducerFrame f) {
        return offer(f);
    }
}

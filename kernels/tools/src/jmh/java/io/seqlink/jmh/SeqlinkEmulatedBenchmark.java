package io.seqlink.jmh;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.topology.VerifierSettings;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * seqlink on the emulated backend: one producer (the benchmark thread) publishing {@code payload}-byte
 * frames through a lossless channel to {@code consumers} consumer devices, each driven by its launcher
 * thread and a host listener that copies every payload out. Lossless backpressure bounds how far the
 * producer runs ahead (one ring), so the producer's rate is the end-to-end rate. Same shapes as
 * {@link DisruptorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SeqlinkEmulatedBenchmark {

    static final int SLOTS = 1024;
    static final int BATCH = 16;

    @Param({"1", "3"})
    public int consumers;

    @Param({"64", "16384"})
    public int payload;

    private SeqlinkRuntime runtime;
    private PublishChannel channel;
    private byte[] frame;
    private Reader[] readers;

    /** Copies each payload out, as the Disruptor handlers do, and keeps a word so nothing is optimised away. */
    static final class Reader implements FrameHandler {
        final byte[] scratch;
        volatile long sink;
        long frames;

        Reader(int payload) {
            scratch = new byte[payload];
        }

        @Override
        public void onFrame(io.seqlink.channel.Frame f) {
            ByteBuffer p = f.payload();
            p.get(0, scratch, 0, f.length());
            frames++;
            sink = scratch[0] + frames;
        }
    }

    @Setup(Level.Trial)
    public void open() {
        runtime = openRuntime(consumers + 1);
        Integer[] devices = new Integer[consumers];
        for (int i = 0; i < consumers; i++) {
            devices[i] = i + 1;
        }
        channel = runtime.openChannel(ChannelSpec.builder("bench").producer(0).consumers(devices).slots(SLOTS)
                .slotBytes(payload).maxPublishBatch(BATCH).build());
        readers = new Reader[consumers];
        for (int i = 0; i < consumers; i++) {
            readers[i] = new Reader(payload);
            channel.consumer(i + 1).subscribe(readers[i]);
        }
        frame = new byte[payload];
        for (int i = 0; i < payload; i++) {
            frame[i] = (byte) i;
        }
        runtime.start();
    }

    /** An emulated runtime of {@code devices} devices, launcher yielding, batches up to 256: what both benchmarks run on. */
    static SeqlinkRuntime openRuntime(int devices) {
        return SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(devices))
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(IdleStrategyKind.YIELD, 256, Duration.ofMillis(100)))
                .open();
    }

    @TearDown(Level.Iteration)
    public void drain() {
        runtime.launcher().awaitDrained(Duration.ofSeconds(30));
    }

    @TearDown(Level.Trial)
    public void close() {
        runtime.close();
    }

    /** One frame per publish: claim, copy in, commit, publish (one release add). */
    @Benchmark
    public long offer() {
        long seq;
        while ((seq = channel.offer(frame, 0, payload)) < 0) {
            Thread.yield(); // back-pressured: let the consumers run (2 cores, 1 + N threads)
        }
        return seq;
    }

    /** {@value #BATCH} frames per publish: claim, copy and commit each, then one release add for all. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch() {
        long last = 0;
        int pending = 0;
        for (int n = 0; n < BATCH; ) {
            long seq = channel.tryClaim();
            if (seq < 0) {
                // back-pressured mid-batch: publish what is committed (the consumers need it), then wait
                if (pending > 0) {
                    channel.publish();
                    pending = 0;
                }
                Thread.yield();
                continue;
            }
            channel.buffer().put(0, frame, 0, payload);
            channel.commit(payload);
            last = seq;
            pending++;
            n++;
        }
        if (pending > 0) {
            channel.publish();
        }
        return last;
    }
}

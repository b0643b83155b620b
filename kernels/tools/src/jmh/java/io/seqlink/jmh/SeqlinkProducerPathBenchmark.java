package io.seqlink.jmh;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The producer's own path, one thread, nothing else running: a {@code latest} channel whose consumer
 * has no listener, so no slot is ever waited for and no other thread competes for the cores. What a
 * frame costs the producing thread (claim, copy into staging, commit, publish; inline emulated streams
 * run the device steps on it too), the figure the multi-producer claim must not make much dearer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SeqlinkProducerPathBenchmark {

    static final int BATCH = 16;

    private SeqlinkRuntime runtime;
    private PublishChannel channel;
    private final byte[] frame = new byte[64];

    @Setup(Level.Trial)
    public void open() {
        // self-contained (no helper of the other benchmarks): the same class measures older builds too
        runtime = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                .verifier(VerifierSettings.defaults().withEnabled(false)).drainTimeout(Duration.ZERO).open();
        channel = runtime.openChannel(ChannelSpec.builder("producer-path").producer(0).consumers(1).slots(1024).slotBytes(64)
                .delivery(Delivery.LATEST).maxPublishBatch(BATCH).build());
    }

    @TearDown(Level.Trial)
    public void close() {
        runtime.close();
    }

    /** One frame per publish. */
    @Benchmark
    public long offer() {
        return channel.offer(frame, 0, 64);
    }

    /** {@value #BATCH} frames per publish: claim, buffer, commit each, then one publish. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch() {
        for (int n = 0; n < BATCH; n++) {
            channel.tryClaim();
            channel.buffer().put(0, frame, 0, 64);
            channel.commit(64);
        }
        return channel.publish();
    }
}

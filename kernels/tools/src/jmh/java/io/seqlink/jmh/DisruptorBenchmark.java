package io.seqlink.jmh;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * The baseline: LMAX Disruptor 4 with the same shapes as {@link SeqlinkEmulatedBenchmark}. A single
 * producer copies {@code payload} bytes into the event and publishes; {@code consumers} independent
 * handlers (each on its own thread, like seqlink's consumer devices) copy every payload out. Ring of
 * 1024, {@link YieldingWaitStrategy} (spin, then yield: the closest match to seqlink's yield idle
 * strategy on two cores).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DisruptorBenchmark {

    static final int SLOTS = SeqlinkEmulatedBenchmark.SLOTS;
    static final int BATCH = SeqlinkEmulatedBenchmark.BATCH;

    @Param({"1", "3"})
    public int consumers;

    @Param({"64", "16384"})
    public int payload;

    private Disruptor<Event> disruptor;
    private RingBuffer<Event> ring;
    private byte[] frame;
    private Reader[] readers;

    /** The pre-allocated event: a payload buffer of the slot size and the length in use. */
    static final class Event {
        byte[] data;
        int length;
    }

    static final class Reader implements EventHandler<Event> {
        final byte[] scratch;
        volatile long sink;
        volatile long seen;
        long frames;

        Reader(int payload) {
            scratch = new byte[payload];
        }

        @Override
        public void onEvent(Event e, long sequence, boolean endOfBatch) {
            System.arraycopy(e.data, 0, scratch, 0, e.length);
            frames++;
            sink = scratch[0] + frames;
            if (endOfBatch) {
                seen = sequence;
            }
        }
    }

    @Setup(Level.Trial)
    public void open() {
        int size = payload;
        disruptor = new Disruptor<>(() -> {
            Event e = new Event();
            e.data = new byte[size];
            return e;
        }, SLOTS, DaemonThreadFactory.INSTANCE, ProducerType.SINGLE, new YieldingWaitStrategy());
        readers = new Reader[consumers];
        for (int i = 0; i < consumers; i++) {
            readers[i] = new Reader(payload);
        }
        disruptor.handleEventsWith(readers);
        ring = disruptor.start();
        frame = new byte[payload];
        for (int i = 0; i < payload; i++) {
            frame[i] = (byte) i;
        }
    }

    @TearDown(Level.Iteration)
    public void drain() {
        long last = ring.getCursor();
        for (Reader r : readers) {
            while (r.seen < last) {
                LockSupport.parkNanos(100_000);
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        disruptor.shutdown();
    }

    /** One event per publish. */
    @Benchmark
    public long offer() {
        long seq = ring.next();
        Event e = ring.get(seq);
        System.arraycopy(frame, 0, e.data, 0, payload);
        e.length = payload;
        ring.publish(seq);
        return seq;
    }

    /** {@value #BATCH} events per publish. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch() {
        long hi = ring.next(BATCH);
        long lo = hi - BATCH + 1;
        for (long s = lo; s <= hi; s++) {
            Event e = ring.get(s);
            System.arraycopy(frame, 0, e.data, 0, payload);
            e.length = payload;
        }
        ring.publish(lo, hi);
        return hi;
    }
}

package io.seqlink.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The user-kernel API on the emulated backend: twins run in stream order with the arguments of their
 * launch, every rule of {@link KernelCall} is enforced at the call that breaks it, the channel handles
 * publish and acknowledge like the channel's own steps, and launching allocates nothing.
 */
class KernelCallTest {

    private final List<long[]> seen = new ArrayList<>();
    private final KernelModule module = KernelModule.builder("test", KernelImage.ofResource("no/such/image.fatbin"))
            .emulated("record", call -> seen.add(new long[] {call.u64(0), call.u32(1), Float.floatToRawIntBits(call.f32(2)),
                    call.blocks(), call.threads()}))
            .emulated("store", call -> call.memory(0).putLong(call.offset(0), call.u64(1)))
            .emulated("publish", call -> call.publishAtEnd(0, (int) call.u64(1)))
            .emulated("take", call -> call.acknowledge(0, call.acquirePublished(0)))
            .build();
    private EmulatedBackend backend;
    private DeviceStream stream;

    @BeforeEach
    void open() {
        backend = new EmulatedBackend(EmulatedTopology.allNvlink(2));
        stream = device(0).newStream("user-kernels");
    }

    /** The device through the seam's type (the emulated device class is package-private). */
    private Device device(int ordinal) {
        Backend b = backend;
        return b.device(ordinal);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    private KernelCall record() {
        return stream.bindKernel(module, "record", KernelParam.U64, KernelParam.U32, KernelParam.F32);
    }

    @Test
    void theTwinRunsInStreamOrderWithTheArgumentsOfItsLaunch() {
        KernelCall call = record();
        backend.faults().stallDevice(0);
        call.u64(0, 1).u32(1, 10).f32(2, 1.5f).launch(2, 64);
        call.u64(0, 2).launch(3, 32); // only what changes is set again
        assertThat(seen).as("stalled: queued, not run").isEmpty();
        backend.faults().resumeDevice(0);
        stream.synchronize();
        assertThat(seen).containsExactly(new long[] {1, 10, Float.floatToRawIntBits(1.5f), 2, 64},
                new long[] {2, 10, Float.floatToRawIntBits(1.5f), 3, 32});
    }

    @Test
    void moreQueuedLaunchesThanThePoolHoldsKeepTheirOwnArguments() {
        KernelCall call = record();
        backend.faults().stallDevice(0);
        for (int i = 0; i < 50; i++) {
            call.u64(0, i).u32(1, i).f32(2, i).launch(1, 1);
        }
        backend.faults().resumeDevice(0);
        stream.synchronize();
        assertThat(seen).hasSize(50);
        for (int i = 0; i < 50; i++) {
            assertThat(seen.get(i)[0]).isEqualTo(i);
        }
    }

    @Test
    void everyRuleIsEnforcedAtTheCallThatBreaksIt() {
        KernelCall call = record();
        assertThatThrownBy(() -> call.launch(1, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("parameter 0 (U64)").hasMessageContaining("never set");
        assertThatThrownBy(() -> call.u32(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 0 of kernel 'record' is declared U64, not U32");
        assertThatThrownBy(() -> call.u64(3, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameters 0 to 2, not 3");
        call.u64(0, 1).u32(1, 1).f32(2, 1);
        assertThatThrownBy(() -> call.launch(1, 2048)).hasMessageContaining("threads must be between 1 and 1024");
        assertThatThrownBy(() -> stream.bindKernel(module, "absent", KernelParam.U64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Java twin for kernel 'absent'")
                .hasMessageContaining(".emulated(\"absent\"");
        try (DeviceBuffer small = device(0).allocate(128)) {
            KernelCall store = stream.bindKernel(module, "store", KernelParam.POINTER, KernelParam.U64);
            assertThatThrownBy(() -> store.pointer(0, small, 129)).hasMessageContaining("outside the 128 bytes");
        }
    }

    @Test
    void aCallBeingSetUpBelongsToItsThreadUntilItLaunches() throws Exception {
        KernelCall call = record();
        call.u64(0, 7); // this thread now holds it
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                call.u32(1, 1);
            } catch (Throwable ex) {
                other.set(ex);
            }
        });
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(other.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one thread at a time");
        call.u32(1, 1).f32(2, 0).launch(1, 1); // launching hands it back
        CountDownLatch done = new CountDownLatch(1);
        Thread next = new Thread(() -> {
            call.u64(0, 8).launch(1, 1);
            done.countDown();
        });
        next.start();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        stream.synchronize();
        assertThat(seen).extracting(r -> r[0]).containsExactly(7L, 8L);
    }

    /** Runs {@code body} on a thread of its own and returns what it threw (null: nothing). */
    private static @Nullable Throwable onAnotherThread(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable ex) {
                thrown.set(ex);
            }
        }, "kernel-call-test-other");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(t.isAlive()).as("the other thread finished").isFalse();
        return thrown.get();
    }

    @Test
    void argumentsSetAtBindTimeAreHandedOverToTheThreadThatLaunches() throws Exception {
        // the Spring shape: bind and set the fixed arguments at startup, launch on the launcher thread
        KernelCall call = record().u32(1, 10).f32(2, 2.5f).handOver();
        assertThat(onAnotherThread(() -> {
            call.u64(0, 1).launch(1, 32);
            call.u64(0, 2).launch(2, 32);
        })).isNull();
        assertThat(onAnotherThread(() -> call.u64(0, 3).launch(3, 32))).as("a third thread, after the launches").isNull();
        stream.synchronize();
        assertThat(seen).containsExactly(new long[] {1, 10, Float.floatToRawIntBits(2.5f), 1, 32},
                new long[] {2, 10, Float.floatToRawIntBits(2.5f), 2, 32}, new long[] {3, 10, Float.floatToRawIntBits(2.5f), 3, 32});
    }

    @Test
    void withoutAHandOverAnotherThreadIsRefusedWithTheFix() throws Exception {
        KernelCall call = record().u32(1, 10).f32(2, 2.5f);
        assertThat(onAnotherThread(() -> call.u64(0, 1).launch(1, 32))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is held by Thread[").hasMessageContaining("handOver()");
        assertThat(onAnotherThread(call::handOver)).as("only the holder hands over").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only the thread that set its arguments can hand it over");
        call.handOver().handOver(); // the holder may; a free call stays free
        assertThat(onAnotherThread(() -> call.u64(0, 1).launch(1, 32))).isNull();
    }

    @Test
    void aSetterOrLaunchThatThrowsLeavesTheCallFreeForAnyThread() throws Exception {
        KernelCall call = record();
        assertThatThrownBy(() -> call.u32(0, 1)).hasMessageContaining("declared U64, not U32");
        assertThat(onAnotherThread(() -> call.u64(0, 5).handOver())).as("after a wrong kind").isNull();
        assertThatThrownBy(() -> call.u64(7, 1)).hasMessageContaining("parameters 0 to 2, not 7");
        assertThat(onAnotherThread(() -> call.u32(1, 6).handOver())).as("after a wrong index").isNull();
        assertThatThrownBy(() -> call.launch(1, 1)).hasMessageContaining("parameter 2 (F32)").hasMessageContaining("never set");
        try (DeviceBuffer small = device(0).allocate(128)) {
            KernelCall store = stream.bindKernel(module, "store", KernelParam.POINTER, KernelParam.U64);
            assertThatThrownBy(() -> store.pointer(0, small, 129)).hasMessageContaining("outside the 128 bytes");
            assertThat(onAnotherThread(() -> store.pointer(0, small, 0).u64(1, 9).launch(1, 1))).as("after a bad offset").isNull();
        }
        assertThat(onAnotherThread(() -> call.f32(2, 7).launch(1, 1))).as("after a refused launch").isNull();
        stream.synchronize();
        assertThat(seen).containsExactly(new long[] {5, 6, Float.floatToRawIntBits(7f), 1, 1});
    }

    /** A pull channel on device 0 bound at the SPI: its publish step on {@link #stream}, its consume step on a stream of its own. */
    private record PullChannel(RingGeometry g, MappedBuffer mirror, MappedBuffer consumerMirror, DeviceStream consumerStream,
            PublishKernel publish, ConsumeKernel consume) {
    }

    private PullChannel pullChannel() {
        Device d = device(0);
        RingGeometry g = RingGeometry.of(8, 256);
        DeviceBuffer control = d.allocate(ControlBlock.BYTES);
        DeviceBuffer ring = d.allocate(g.ringBytes());
        MappedBuffer mirror = d.allocateMapped(ControlBlock.BYTES);
        MappedBuffer consumerMirror = d.allocateMapped(ConsumerBlock.BYTES);
        DeviceStream consumerStream = d.newStream("user-consumer");
        return new PullChannel(g, mirror, consumerMirror, consumerStream,
                stream.bindPublish(new PublishBinding(control, ring, g, mirror, 4, List.of())),
                consumerStream.bindConsume(new ConsumeBinding(control, ring, g, 4, null, d.allocate(ConsumerBlock.BYTES), consumerMirror,
                        false)));
    }

    @Test
    void channelHandlesPublishAndAcknowledgeLikeTheChannelsSteps() {
        Device d = device(0);
        PullChannel ch = pullChannel();

        stream.bindKernel(module, "publish", KernelParam.PUBLISH_HANDLES, KernelParam.U64).publishHandles(0, ch.publish())
                .u64(1, 3).launch(1, 32);
        stream.synchronize();
        assertThat(ch.mirror().getAcquire(ControlBlock.PUBLISH_SEQ)).isEqualTo(3);
        ch.consumerStream().bindKernel(module, "take", KernelParam.CONSUME_HANDLES).consumeHandles(0, ch.consume()).launch(1, 32);
        ch.consumerStream().synchronize();
        assertThat(ch.consumerMirror().getAcquire(ConsumerBlock.CONSUMED_SEQ)).isEqualTo(3);

        // handles of a step on another stream, and publish handles of a channel with push consumers, are refused
        assertThatThrownBy(() -> ch.consumerStream().bindKernel(module, "publish", KernelParam.PUBLISH_HANDLES, KernelParam.U64)
                .publishHandles(0, ch.publish())).hasMessageContaining("must run on the channel's producer stream");
        DeviceStream pushing = d.newStream("pushing-producer");
        PublishKernel withReplica = pushing.bindPublish(new PublishBinding(d.allocate(ControlBlock.BYTES), d.allocate(ch.g().ringBytes()),
                ch.g(), d.allocateMapped(ControlBlock.BYTES), 4, List.of(new PublishBinding.PushTarget(
                        device(1).allocate(ControlBlock.BYTES), device(1).allocate(ch.g().ringBytes())))));
        assertThatThrownBy(() -> pushing.bindKernel(module, "publish", KernelParam.PUBLISH_HANDLES, KernelParam.U64)
                .publishHandles(0, withReplica)).isInstanceOf(IllegalStateException.class).hasMessageContaining("push consumers");
    }

    @Test
    void aLaunchSeesOnePublishedValueAndAcknowledgesTheSmallestSequenceItWasGivenAtItsEnd() {
        // the CUDA grid's blocks agree on one publish_seq and the last block acknowledges the smallest
        // sequence any block passed; the twin, one thread for the whole grid, must give the same answers
        PullChannel ch = pullChannel();
        List<Long> twice = new ArrayList<>();
        KernelModule blocks = KernelModule.builder("blocks", KernelImage.ofResource("no/such/image.fatbin"))
                .emulated("take", call -> {
                    twice.add(call.acquirePublished(0));                 // "block 0"
                    ch.publish().enqueue(2);                             // the producer moves on meanwhile
                    twice.add(call.acquirePublished(0));                 // "block 1": the grid's value, not a new read
                    call.acknowledge(0, twice.get(0));
                    call.acknowledge(0, twice.get(0) - 1);               // a block that took less
                    twice.add(ch.consumerMirror().getAcquire(ConsumerBlock.CONSUMED_SEQ)); // not yet: at the end
                })
                .build();
        ch.publish().enqueue(3);
        stream.synchronize();
        ch.consumerStream().bindKernel(blocks, "take", KernelParam.CONSUME_HANDLES).consumeHandles(0, ch.consume()).launch(2, 32);
        ch.consumerStream().synchronize();
        stream.synchronize();
        assertThat(twice).containsExactly(3L, 3L, 0L);
        assertThat(ch.mirror().getAcquire(ControlBlock.PUBLISH_SEQ)).as("the producer did move on").isEqualTo(5);
        assertThat(ch.consumerMirror().getAcquire(ConsumerBlock.CONSUMED_SEQ)).as("the smallest acknowledged").isEqualTo(2);
    }

    @Test
    void launchingAllocatesNothing() {
        try (MappedBuffer out = device(0).allocateMapped(128)) {
            KernelCall store = stream.bindKernel(module, "store", KernelParam.POINTER, KernelParam.U64).pointer(0, out, 0);
            com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int i = 0; i < 20_000; i++) {
                store.u64(1, i).launch(1, 1);
            }
            long before = bean.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                store.u64(1, i).launch(1, 1);
            }
            long allocated = bean.getCurrentThreadAllocatedBytes() - before;
            stream.synchronize();
            assertThat(out.getAcquire(0)).isEqualTo(99_999);
            assertThat(allocated).as("bytes allocated over 100000 launches").isLessThan(4096);
        }
    }
}

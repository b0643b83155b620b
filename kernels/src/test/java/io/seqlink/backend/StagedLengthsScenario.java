package io.seqlink.backend;

import io.seqlink.docs.DeviceKernelsExample;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.util.List;

/**
 * A user kernel that publishes at its end on a channel whose publish step copies each frame's length from
 * the producer's staging ring (as every channel's does): the kernel's own lengths ({@code set_length}) must
 * survive its publish, while the channel's publish step still takes the staged ones. The staging ring holds
 * a stale length in every slot, what a host commit would have left there. Run on the emulated backend by
 * {@code UserKernelLengthsTest} and on a GPU by {@code UserKernelGpuTest}.
 */
public final class StagedLengthsScenario {

    /** A length no frame of the scenario has: what the host committed into every slot before. */
    public static final long STALE = 7;
    /** The length the host stages for the frame the channel's own publish step publishes. */
    public static final long STAGED = 77;

    /**
     * What came out: the consumer kernel's byte sum over frames 1..4 (written by the producer kernel, 1000
     * bytes each), and the ring's length words of frames 1..5 (5: committed by the host, published by the step).
     */
    public record Outcome(long sum, long[] lengths) {
    }

    private StagedLengthsScenario() {
    }

    public static Outcome run(Backend backend) {
        Device gpu = backend.device(0);
        RingGeometry g = RingGeometry.of(16, 4096);
        try (DeviceBuffer control = gpu.allocate(ControlBlock.BYTES);
             DeviceBuffer ring = gpu.allocate(g.ringBytes());
             MappedBuffer mirror = gpu.allocateMapped(ControlBlock.BYTES);
             MappedBuffer staging = gpu.allocateMapped(g.ringBytes());
             DeviceBuffer block = gpu.allocate(ConsumerBlock.BYTES);
             MappedBuffer consumerMirror = gpu.allocateMapped(ConsumerBlock.BYTES);
             MappedBuffer sum = gpu.allocateMapped(Long.BYTES);
             MappedBuffer headers = gpu.allocateMapped(5L * SlotHeader.BYTES);
             DeviceStream producer = gpu.newStream("staged-lengths-producer");
             DeviceStream consumer = gpu.newStream("staged-lengths-consumer")) {
            for (long s = 1; s <= g.slots(); s++) {
                staging.setPlain(g.offsetOf(s) + SlotHeader.LENGTH, STALE);
            }
            PublishKernel publish = producer.bindPublish(new PublishBinding(control, ring, g, mirror, 4, List.of(), staging));
            ConsumeKernel consume = consumer.bindConsume(new ConsumeBinding(control, ring, g, 4, null, block, consumerMirror, false));
            producer.bindKernel(DeviceKernelsExample.MODULE, "example_produce", KernelParam.PUBLISH_HANDLES, KernelParam.U64,
                    KernelParam.U64).publishHandles(0, publish).u64(1, 4).u64(2, 1000).launch(4, 256);
            producer.synchronize();
            consumer.bindKernel(DeviceKernelsExample.MODULE, "example_consume", KernelParam.CONSUME_HANDLES, KernelParam.U64,
                    KernelParam.U64, KernelParam.POINTER).consumeHandles(0, consume).u64(1, 1).u64(2, 4).pointer(3, sum, 0)
                    .launch(4, 256);
            consumer.synchronize();

            staging.setPlain(g.offsetOf(5) + SlotHeader.LENGTH, STAGED); // a host commit of frame 5 (payload unread)
            publish.enqueue(1);
            for (long s = 1; s <= 5; s++) {
                producer.copy(ring, g.offsetOf(s), headers, (s - 1) * SlotHeader.BYTES, SlotHeader.BYTES);
            }
            producer.synchronize();
            long[] lengths = new long[5];
            for (int i = 0; i < 5; i++) {
                lengths[i] = headers.getAcquire((long) i * SlotHeader.BYTES + SlotHeader.LENGTH);
            }
            return new Outcome(sum.getAcquire(0), lengths);
        }
    }
}

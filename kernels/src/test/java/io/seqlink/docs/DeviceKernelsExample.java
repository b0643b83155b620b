package io.seqlink.docs;

import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The example of docs/device-kernels.md (the page shows this file verbatim; the sample's
 * {@code DocSnippetsTests} checks that): a user's producer kernel that
 * publishes at its end and a consumer kernel that begins with the acquire read and ends with the ack
 * ({@code src/test/cuda/device_kernels_example.cu}), launched with a channel's handles. Run on the
 * emulated backend by {@link DeviceKernelsDocTest} and on a GPU by {@code UserKernelGpuTest}.
 */
public final class DeviceKernelsExample {

    /** What the example saw: the frames' byte sum the consumer kernel computed, and the acknowledged sequence. */
    public record Outcome(long sum, long acknowledged, long published) {
    }

    /** The example's kernels (src/test/cuda/device_kernels_example.cu, built into the test class path) and their twins. */
    public static final KernelModule MODULE = KernelModule.builder("example",
                    KernelImage.ofResource("io/seqlink/kernels/test/device-kernels-example.fatbin"))
            .emulated("example_produce", call -> {             // the same bytes in Java, for the emulated backend
                ByteBuffer ring = call.ring(0);
                long first = call.firstUnpublished(0);
                int count = (int) call.u64(1);
                int length = (int) call.u64(2);
                for (long s = first; s < first + count; s++) {
                    int slot = call.slotOffset(0, s);
                    for (int i = 0; i < length; i++) {
                        ring.put(slot + SlotHeader.BYTES + i, (byte) (s + i));
                    }
                    ring.putLong(slot + SlotHeader.LENGTH, length);
                }
                call.publishAtEnd(0, count);
            })
            .emulated("example_consume", call -> {
                long last = Math.min(call.u64(2), call.acquirePublished(0));
                ByteBuffer ring = call.ring(0);
                long sum = 0;
                for (long s = call.u64(1); s <= last; s++) {
                    int slot = call.slotOffset(0, s);
                    for (int i = 0; i < ring.getLong(slot + SlotHeader.LENGTH); i++) {
                        sum += ring.get(slot + SlotHeader.BYTES + i) & 0xFF;
                    }
                }
                call.memory(3).putLong(call.offset(3), call.memory(3).getLong(call.offset(3)) + sum);
                call.acknowledge(0, last);
            })
            .build();

    private DeviceKernelsExample() {
    }

    /** The sum the consumer kernel must find: four frames of 1000 bytes, byte i of frame s = (s + i) & 0xFF. */
    public static long expectedSum() {
        long sum = 0;
        for (long s = 1; s <= 4; s++) {
            for (int i = 0; i < 1000; i++) {
                sum += (s + i) & 0xFF;
            }
        }
        return sum;
    }

    public static Outcome run(Backend backend) {
        Device gpu = backend.device(0);
        RingGeometry geometry = RingGeometry.of(16, 4096);
        DeviceBuffer control = gpu.allocate(ControlBlock.BYTES);
        DeviceBuffer ring = gpu.allocate(geometry.ringBytes());
        MappedBuffer mirror = gpu.allocateMapped(ControlBlock.BYTES);
        DeviceBuffer block = gpu.allocate(ConsumerBlock.BYTES);
        MappedBuffer consumerMirror = gpu.allocateMapped(ConsumerBlock.BYTES);
        MappedBuffer sum = gpu.allocateMapped(Long.BYTES);
        DeviceStream producer = gpu.newStream("example-producer");
        DeviceStream consumer = gpu.newStream("example-consumer");
        PublishKernel publish = producer.bindPublish(new PublishBinding(control, ring, geometry, mirror, 4, List.of()));
        ConsumeKernel consume = consumer.bindConsume(
                new ConsumeBinding(control, ring, geometry, 4, null, block, consumerMirror, false));

        KernelCall produce = producer.bindKernel(MODULE, "example_produce",
                KernelParam.PUBLISH_HANDLES, KernelParam.U64, KernelParam.U64).publishHandles(0, publish);
        KernelCall take = consumer.bindKernel(MODULE, "example_consume",
                KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64, KernelParam.POINTER)
                .consumeHandles(0, consume).pointer(3, sum, 0)  // the arguments that never change, set at the bind
                .handOver();                                     // any thread may launch it now (a launcher's, say)

        produce.u64(1, 4).u64(2, 1000).launch(4, 256);  // frames 1..4, written and published by one kernel
        producer.synchronize();                          // (a launcher polls the mirror instead)
        long published = mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
        take.u64(1, 1).u64(2, published).launch(4, 256);
        consumer.synchronize();
        long acknowledged = consumerMirror.getAcquire(ConsumerBlock.CONSUMED_SEQ);
        return new Outcome(sum.getAcquire(0), acknowledged, published);
    }
}

package io.seqlink.bench;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Backend;
import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.PatternKernels;
import io.seqlink.backend.PublishBinding;
import io.seqlink.backend.PublishKernel;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.util.ArrayList;
import java.util.List;

/**
 * One producer and k consumers bound directly through the backend SPI, the same steps a channel binds
 * (publish, consume in copy mode, ack). The SPI and not the channel API, because a channel takes one
 * consumer per device and the fan-out sweep must also run as k streams of a single GPU.
 */
final class FanOutRig implements AutoCloseable {

    final RingGeometry geometry;
    final int maxBatch;
    final DeviceBuffer control;
    final DeviceBuffer ring;
    final MappedBuffer mirror;
    final DeviceStream producerStream;
    final PublishKernel publish;
    final PatternKernels producerWork;
    final List<Consumer> consumers = new ArrayList<>();
    private final List<AutoCloseable> memory = new ArrayList<>();

    FanOutRig(Backend backend, int producer, List<Integer> consumerDevices, int slots, long slotBytes) {
        geometry = RingGeometry.of(slots, slotBytes);
        maxBatch = Math.max(1, Math.min(16, slots / 4));
        Device pd = backend.device(producer);
        control = track(pd.allocate(ControlBlock.BYTES));
        ring = track(pd.allocate(geometry.ringBytes()));
        mirror = track(pd.allocateMapped(ControlBlock.BYTES));
        producerStream = pd.newStream("bench-fanout-producer");
        publish = producerStream.bindPublish(new PublishBinding(control, ring, geometry, mirror, maxBatch, List.of()));
        producerWork = BenchWork.on(producerStream);
        for (int i = 0; i < consumerDevices.size(); i++) {
            int c = consumerDevices.get(i);
            backend.enablePeerAccess(c, producer);
            consumers.add(new Consumer(backend.device(c), i));
        }
    }

    private <T extends AutoCloseable> T track(T m) {
        memory.add(m);
        return m;
    }

    /** Producer side of frame {@code s}: pattern, length word, publish of one frame. */
    void produce(long s, long length) {
        producerWork.fill(ring, geometry.payloadOffsetOf(s), length, s);
        producerStream.writeValue(ring, geometry.offsetOf(s) + SlotHeader.LENGTH, length);
        publish.enqueue(1);
    }

    long published() {
        return mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
    }

    /** The slowest consumer's acknowledgement: what lossless backpressure waits for. */
    long slowestAck() {
        long min = Long.MAX_VALUE;
        for (Consumer c : consumers) {
            min = Math.min(min, c.acknowledged());
        }
        return min;
    }

    /** One consumer: its stream, cursor block, local ring, bound steps and checksum results. */
    final class Consumer {
        final int index;
        final DeviceStream stream;
        final DeviceBuffer block;
        final MappedBuffer cmirror;
        final DeviceBuffer local;
        final MappedBuffer sums;
        final ConsumeKernel consume;
        final AckKernel ack;
        final PatternKernels work;

        Consumer(Device d, int index) {
            this.index = index;
            stream = d.newStream("bench-fanout-consumer-" + index);
            block = track(d.allocate(ConsumerBlock.BYTES));
            cmirror = track(d.allocateMapped(ConsumerBlock.BYTES));
            local = track(d.allocate(geometry.ringBytes()));
            sums = track(d.allocateMapped(8L * ChecksumListener.RESULT_WORDS));
            consume = stream.bindConsume(new ConsumeBinding(control, ring, geometry, maxBatch, local, block, cmirror, false));
            ack = stream.bindAck(new AckBinding(block, cmirror));
            work = BenchWork.on(stream);
        }

        /** Consume step, a checksum per frame, ack: enqueued, not waited for. */
        void take(long from, long to, long length) {
            consume.enqueue(from, to, to);
            for (long s = from; s <= to; s++) {
                work.checksum(local, geometry.payloadOffsetOf(s), length, sums, 8 * (s % ChecksumListener.RESULT_WORDS));
            }
            ack.enqueue(to);
        }

        long acknowledged() {
            return cmirror.getAcquire(ConsumerBlock.CONSUMED_SEQ);
        }

        /** Acquire reads of {@code publish_seq} by this consumer's consume steps (device counters). */
        long controlReads() {
            return cmirror.getAcquire(ConsumerBlock.READS) + cmirror.getAcquire(ConsumerBlock.EMPTY_POLLS);
        }
    }

    @Override
    public void close() {
        // streams first: their queued work may still touch the memory
        producerStream.close();
        for (Consumer c : consumers) {
            c.stream.close();
        }
        for (AutoCloseable m : memory) {
            try {
                m.close();
            } catch (Exception ex) {
                System.err.println("seqlink-bench: freeing fan-out memory: " + ex);
            }
        }
    }
}

package io.seqlink.backend.emulated;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.layout.ConsumerBlock;

/**
 * The ack steps in Java: one release store of {@code consumed_seq} into the host mirror, as {@code seqlink_ack};
 * for {@code seqlink_ack_ready}, of the device block's {@code READY_TO}, which the consume step before it on
 * the stream wrote (stream order: a plain read on the thread that drains the stream).
 */
final class EmulatedAckKernel implements AckKernel, EmulatedStream.Task {

    /** Marks a command of {@link #enqueueTaken} (a sequence is never negative). */
    private static final long TAKEN = -1;

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedMemory block;
    private final EmulatedMappedBuffer mirror;

    EmulatedAckKernel(EmulatedStream stream, AckBinding b) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        this.block = device.own(b.block());
        this.mirror = (EmulatedMappedBuffer) device.own(b.mirror());
    }

    @Override
    public void enqueue(long sequence) {
        stream.enqueue(this, null, null, null, sequence, 0, 0, 0, 0, 0);
    }

    @Override
    public void enqueueTaken() {
        stream.enqueue(this, null, null, null, TAKEN, 0, 0, 0, 0, 0);
    }

    @Override
    public void run(EmulatedStream.Command c) {
        long sequence = c.a;
        if (sequence == TAKEN) {
            device.beforeLaunch("seqlink_ack_ready");
            sequence = block.getPlainWord(ConsumerBlock.READY_TO); // ld.relaxed.sys after the consume step, in stream order
        } else {
            device.beforeLaunch("seqlink_ack");
        }
        mirror.setReleaseWord(ConsumerBlock.CONSUMED_SEQ, sequence);  // st.release.sys to host memory (the device block's copy is unread)
    }
}

package io.seqlink.backend.emulated;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.layout.ConsumerBlock;

/** The ack step in Java: one release store of {@code consumed_seq} into the host mirror, as {@code seqlink_ack}. */
final class EmulatedAckKernel implements AckKernel, EmulatedStream.Task {

    private final EmulatedStream stream;
    private final EmulatedDevice device;
    private final EmulatedMappedBuffer mirror;

    EmulatedAckKernel(EmulatedStream stream, AckBinding b) {
        this.stream = stream;
        this.device = stream.emulatedDevice();
        device.own(b.block());
        this.mirror = (EmulatedMappedBuffer) device.own(b.mirror());
    }

    @Override
    public void enqueue(long sequence) {
        stream.enqueue(this, null, null, null, sequence, 0, 0, 0, 0, 0);
    }

    @Override
    public void run(EmulatedStream.Command c) {
        device.beforeLaunch("seqlink_ack");
        mirror.setReleaseWord(ConsumerBlock.CONSUMED_SEQ, c.a);  // st.release.sys to host memory (the device block's copy is unread)
    }
}

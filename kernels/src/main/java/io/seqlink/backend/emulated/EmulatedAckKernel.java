package io.seqlink.backend.emulated;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.layout.ConsumerBlock;

/** The ack step in Java: release stores of {@code consumed_seq}, device block first, then the host mirror. */
final class EmulatedAckKernel implements AckKernel, EmulatedStream.Task {

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
    public void run(EmulatedStream.Command c) {
        device.beforeLaunch("seqlink_ack");
        block.setReleaseWord(ConsumerBlock.CONSUMED_SEQ, c.a);   // st.release.sys
        mirror.setReleaseWord(ConsumerBlock.CONSUMED_SEQ, c.a);  // st.release.sys to host memory
    }
}

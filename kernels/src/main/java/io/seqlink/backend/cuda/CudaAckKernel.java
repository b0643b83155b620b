package io.seqlink.backend.cuda;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.layout.ConsumerBlock;

/**
 * The ack steps on the consumer's stream: {@code seqlink_ack} (one thread, one release store of
 * {@code consumed_seq} into the host mirror; nothing on a device reads the device block's copy) and
 * {@code seqlink_ack_ready} (the same store of the device block's {@code READY_TO}, read in stream order).
 */
final class CudaAckKernel implements AckKernel {

    private final CudaStream stream;
    private final KernelLaunch launch;
    private final KernelLaunch launchTaken;

    CudaAckKernel(CudaStream stream, AckBinding b) {
        this.stream = stream;
        CudaBackend backend = stream.backend();
        long block = backend.own(b.block(), "block").at(0, ConsumerBlock.BYTES, "block");
        long mirror = backend.own(b.mirror(), "mirror").at(0, ConsumerBlock.BYTES, "mirror");
        this.launch = new KernelLaunch(stream.context(), "seqlink_ack", 8, 8);
        launch.params.putLong(0, mirror);
        this.launchTaken = new KernelLaunch(stream.context(), "seqlink_ack_ready", 8, 8);
        launchTaken.params.putLong(0, block);
        launchTaken.params.putLong(1, mirror);
        stream.onClose(launch::release);
        stream.onClose(launchTaken::release);
    }

    @Override
    public synchronized void enqueue(long sequence) {
        stream.checkOpen();
        launch.params.putLong(1, sequence);
        launch.launch(stream.handle(), 1, 1);
    }

    @Override
    public synchronized void enqueueTaken() {
        stream.checkOpen();
        launchTaken.launch(stream.handle(), 1, 1);
    }
}

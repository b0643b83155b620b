package io.seqlink.backend.cuda;

import io.seqlink.backend.AckBinding;
import io.seqlink.backend.AckKernel;
import io.seqlink.backend.Memory;
import io.seqlink.layout.ConsumerBlock;

/**
 * The ack steps on the consumer's stream. An ordinary round's ack, whose sequence the host knows, is a stream
 * memory operation: {@code cuStreamWriteValue64} of {@code consumed_seq} into the host mirror with its default
 * memory barrier (the front end writes it after the stream's earlier work, a listener's reads included: no
 * kernel, one step fewer to schedule on the device); where 64-bit stream memory operations are unsupported,
 * {@code seqlink_ack} (one thread, one release store). An armed round's ack is {@code seqlink_ack_ready} (the same
 * store of the device block's {@code READY_TO}, read on the device in stream order: its value is known only there).
 * Nothing on a device reads the device block's copy of {@code consumed_seq}.
 */
final class CudaAckKernel implements AckKernel {

    private final CudaStream stream;
    private final Memory mirror;
    private final boolean streamWrite;
    private final KernelLaunch launch;
    private final KernelLaunch launchTaken;

    CudaAckKernel(CudaStream stream, AckBinding b) {
        this.stream = stream;
        this.mirror = b.mirror();
        this.streamWrite = stream.context().streamMemOps64();
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
        if (streamWrite) {
            stream.writeValue(mirror, ConsumerBlock.CONSUMED_SEQ, sequence);
            return;
        }
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

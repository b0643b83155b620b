package io.seqlink.channel.consumer;

import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.layout.ConsumerBlock;

/**
 * One consumer's cancel word ({@link ConsumerBlock#ARM_CANCEL}), the highest armed round the host cancelled: raised
 * in the host mirror (the host's record: a compare-and-set that never lowers it), then stored into the consumer's
 * device block, where kernels read it ({@link Device#storeWord}: done when it returns). Kernels read the device copy
 * because every block of a round kernel reads it before it reads a frame, and uncached reads of one pinned host
 * word queue up behind each other; a read of device memory costs what any other does.
 *
 * <p>Threading: {@link #raise} from any thread; stores are made under one lock in the order of the record's values,
 * so a canceller never overwrites a later round's mark with its own older one.
 */
final class CancelMark {

    private final MappedBuffer mirror;
    private final DeviceBuffer block;
    private final Device device;

    CancelMark(MappedBuffer mirror, DeviceBuffer block, Device device) {
        this.mirror = mirror;
        this.block = block;
        this.device = device;
    }

    /**
     * Marks round {@code round} (and every earlier one) cancelled, and returns once a kernel launched afterwards
     * reads the mark. Blocks for a round trip to the device.
     *
     * @throws io.seqlink.backend.DeviceException when the device fails the store
     */
    void raise(long round) {
        mirror.raiseTo(ConsumerBlock.ARM_CANCEL, round);
        synchronized (this) {
            device.storeWord(block, ConsumerBlock.ARM_CANCEL, mirror.getAcquire(ConsumerBlock.ARM_CANCEL));
        }
    }
}

package io.seqlink.bench;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;

/**
 * The consumer's device work of the cycle: one checksum kernel per frame on the consumer's stream,
 * its result written to word {@code sequence % 1024} of a host-mapped buffer, where the harness
 * compares it with {@link io.seqlink.backend.FramePattern} afterwards. A class, not a lambda, so it is
 * obviously built once and allocates nothing per round.
 */
public final class ChecksumListener implements DeviceFrameHandler {

    static final int RESULT_WORDS = 1024;

    private final long length;
    private final MappedBuffer sums;

    public ChecksumListener(long length, MappedBuffer sums) {
        this.length = length;
        this.sums = sums;
    }

    @Override
    public void onFrames(DeviceFrames frames) {
        for (long s = frames.first(); s <= frames.last(); s++) {
            BenchWork.on(frames.stream()).checksum(frames.memory(), frames.payloadOffset(s), length, sums, 8 * (s % RESULT_WORDS));
        }
    }
}

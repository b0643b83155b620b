package io.seqlink.testing;

import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameBatchHandler;
import java.util.List;

/**
 * A batch listener that checks every frame of each batch with a {@link FrameChecker} and, on every
 * {@code failEvery}-th call, throws before it checks anything: the port retries the whole batch, which must come
 * back with the same frames (a retry that starts elsewhere or holds another count is counted in
 * {@link #retryMismatches}). The counts are written by the delivering thread before the port acknowledges the
 * batch, so a reader that acquired the acknowledgement sees at least what it covers (as for {@link FrameChecker}).
 */
public final class BatchChecker implements FrameBatchHandler {

    private final FrameChecker checker;
    private final int failEvery;
    private long calls;
    private long failedFirst = -1;
    private int failedSize;
    public long batches;
    public int largest;
    public long thrown;
    public long retryMismatches;

    /** {@code failEvery} 0: never throws. */
    public BatchChecker(FrameChecker checker, int failEvery) {
        this.checker = checker;
        this.failEvery = failEvery;
    }

    @Override
    public void onBatch(List<Frame> frames) {
        calls++;
        long first = frames.get(0).sequence();
        if (failedFirst >= 0) {
            if (first != failedFirst || frames.size() != failedSize) {
                retryMismatches++;
            }
            failedFirst = -1;
        } else if (failEvery > 0 && calls % failEvery == 0) {
            failedFirst = first;
            failedSize = frames.size();
            thrown++;
            throw new IllegalStateException("the test's batch listener fails batch " + first + ".." + (first + frames.size() - 1)
                    + " once");
        }
        for (Frame f : frames) {
            checker.onFrame(f);
        }
        batches++;
        largest = Math.max(largest, frames.size());
    }

    /** The status line's batch fields. */
    public String status() {
        return " batches=" + batches + " largest=" + largest + " thrown=" + thrown + " retryMismatches=" + retryMismatches;
    }
}

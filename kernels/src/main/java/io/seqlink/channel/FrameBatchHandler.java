package io.seqlink.channel;

import java.util.List;

/**
 * Receives the frames of one consume round on the host, in sequence order. The list and its frames
 * are reused: valid only during the call.
 */
@FunctionalInterface
public interface FrameBatchHandler {

    /** Handles the batch; throwing means none of it was handled and the whole batch will be retried. */
    void onBatch(List<Frame> frames) throws Exception;
}

package io.seqlink.channel;

/** Receives frames on the host, one call per frame, in sequence order. */
@FunctionalInterface
public interface FrameHandler {

    /** Handles one frame; throwing means it was not handled and it will be retried. */
    void onFrame(Frame frame) throws Exception;
}

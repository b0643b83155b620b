package io.seqlink.channel;

/**
 * Takes a frame whose listener kept failing after every retry: the dead-letter hook. If it returns,
 * the frame counts as dead-lettered and consumption goes on; if it throws, the consumer stops at that
 * frame (nothing acknowledged past it) and the next round delivers it again.
 */
@FunctionalInterface
public interface FrameErrorHandler {

    void onFailedFrame(Frame frame, Exception cause) throws Exception;
}

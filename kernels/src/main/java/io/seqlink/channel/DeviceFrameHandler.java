package io.seqlink.channel;

/** Enqueues device work on each consume round's frames; it must not wait for that work. */
@FunctionalInterface
public interface DeviceFrameHandler {

    void onFrames(DeviceFrames frames) throws Exception;
}

package io.seqlink.bench;

import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import java.nio.ByteBuffer;

/**
 * The host rows' listener: a user's listener that checks each frame cheaply. Per frame it checks the length and
 * the order, records the first and last word ({@link FrameLog}, compared with the pattern after the run; a frame
 * that never arrives shows there as never recorded), notes the
 * time it saw the frame and publishes the frame's sequence ({@link #seen()}); only then, so outside the time taken,
 * it checksums the frames from {@link #window}'s {@code verifyFrom} on that the {@link ChecksumSample} takes, and
 * publishes the sequence again as {@link #handled()}. It also reads the allocation counter of the thread that
 * delivers to it at two frames, so a launcher's loop thread can be measured. Allocates nothing per frame.
 *
 * <p>Threading: {@link #onFrame} is called by one thread at a time, in sequence order (the port's poller or its
 * launcher's loop, which may change between calls); {@link #window} is set by the measuring thread before the
 * frames it names are published; every other method is read by the measuring thread: {@link #seenNanos()} once
 * {@link #seen()} reached the frame, the counts once {@link #handled()} reached the run's last frame (each is written
 * before the volatile store it is read after).
 */
final class HostFrameCheck implements FrameHandler {

    private final long length;
    private final FrameLog log;
    private final ChecksumSample sample;
    private volatile long allocFrom = Long.MAX_VALUE;
    private volatile long allocTo = Long.MAX_VALUE;
    private volatile long verifyFrom = Long.MAX_VALUE;
    private volatile long seen;
    private volatile long handled;
    private long latest;
    private long repeated;
    private long beyondLog;
    private long seenNanos;
    private long allocStart = -1;
    private long allocEnd = -1;
    private Thread allocThread = Thread.currentThread();
    private boolean allocOneThread;

    /** A check of frames 1 to {@code frames}, each {@code length} bytes. */
    HostFrameCheck(long length, long frames) {
        this.length = length;
        this.log = new FrameLog(length, frames);
        this.sample = new ChecksumSample(length);
    }

    /**
     * The frames the delivering thread's allocation is read between ({@code allocFrom} to {@code allocTo}) and the
     * first frame the checksum sample may take. Set before those frames are published.
     */
    void window(long allocFrom, long allocTo, long verifyFrom) {
        this.allocFrom = allocFrom;
        this.allocTo = allocTo;
        this.verifyFrom = verifyFrom;
    }

    @Override
    public void onFrame(Frame frame) {
        long s = frame.sequence();
        ByteBuffer payload = frame.payload();
        boolean logged = s <= log.capacity();
        if (!logged) {
            beyondLog++;
        } else if (frame.length() != length) {
            log.markBad(s);
        } else if (log.recorded()) {
            log.record(s, payload.getLong(0), payload.getLong(log.lastWordOffset()));
        }
        if (s <= latest) { // a frame again, or an earlier one after a later (a gap shows as a frame never recorded)
            repeated++;
        }
        latest = Math.max(latest, s);
        if (s == allocFrom) {
            allocThread = Thread.currentThread();
            allocStart = AllocationMeter.current();
        }
        seenNanos = System.nanoTime();
        seen = s;
        if (logged && s >= verifyFrom && sample.wants(s) && log.intact(s) && frame.length() == length) {
            sample.check(payload, 0, s); // the payload is a little-endian view; a frame already failed is not counted twice
        }
        if (s == allocTo) {
            allocEnd = AllocationMeter.current();
            allocOneThread = allocThread == Thread.currentThread();
        }
        handled = s;
    }

    /** The last frame the listener saw (its cheap check done). */
    long seen() {
        return seen;
    }

    /** {@link System#nanoTime()} when the listener saw frame {@link #seen()}. */
    long seenNanos() {
        return seenNanos;
    }

    /** The last frame the listener returned from. */
    long handled() {
        return handled;
    }

    /** Frames whose full checksum matched. */
    long verified() {
        return sample.verified();
    }

    /**
     * Frames 1 to {@code last} that failed a check, each once: words or length (or never seen), checksum, delivered
     * again or out of order, or beyond the log's room.
     */
    long corrupt(long last) {
        return log.corrupt(1, Math.min(last, log.capacity())) + sample.corrupt() + repeated + beyondLog;
    }

    /**
     * What the thread delivering frames allocated from frame {@code allocFrom} to {@code allocTo}, or -1 when it is
     * unknown (no allocation counter, or another thread delivered the last of them).
     */
    long deliveringThreadBytes() {
        return allocOneThread && allocStart >= 0 && allocEnd >= 0 ? allocEnd - allocStart : -1;
    }
}

package io.seqlink.shared;

import io.seqlink.channel.PublishChannel;
import io.seqlink.testing.FrameChecker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The frames of the cross-process tests: {@link FrameChecker}'s checksummed pattern (seed and length from the
 * sequence), small, published in batches of up to the channel's max batch by one thread, up to a target that grows.
 */
final class Frames {

    static final int MAX_LENGTH = 24;

    private Frames() {
    }

    /** Publishes frames on its own thread until {@link #published} reaches the target; {@link #stop()} ends it. */
    static final class Publisher implements Runnable {
        private final PublishChannel channel;
        /** Every frame's length, or 0: {@link FrameChecker#lengthOf} (1 to {@link #MAX_LENGTH}). */
        private final int fixedLength;
        private final AtomicLong target = new AtomicLong();
        final AtomicLong published = new AtomicLong();
        private volatile boolean stopped;
        private final Thread thread;

        Publisher(PublishChannel channel) {
            this(channel, 0);
        }

        /**
         * Frames of {@code fixedLength} bytes each, the same pattern (seed {@link FrameChecker#seedOf}), as a device
         * listener's checksum kernel checks them ({@link io.seqlink.testing.ArmedChecksumListener}); 0: lengths that vary.
         */
        Publisher(PublishChannel channel, int fixedLength) {
            this.fixedLength = fixedLength;
            this.channel = channel;
            this.thread = new Thread(this, "test-publisher-" + channel.name());
            thread.setDaemon(true);
            thread.start();
        }

        void more(long frames) {
            target.addAndGet(frames);
        }

        @Override
        public void run() {
            int batch = channel.spec().maxPublishBatch();
            while (!stopped) {
                long due = target.get() - published.get();
                if (due <= 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    continue;
                }
                int n = (int) Math.min(due, batch);
                int claimed = 0;
                while (claimed < n && !stopped) {
                    long seq = channel.claim(1, TimeUnit.SECONDS);
                    if (seq > 0) {
                        channel.commit(fixedLength == 0 ? FrameChecker.write(channel.buffer(), seq, MAX_LENGTH)
                                : fixed(channel.buffer(), seq, fixedLength));
                        claimed++;
                    } else if (seq != io.seqlink.channel.ClaimStatus.BACK_PRESSURED) {
                        return; // closed or failed: the test sees it
                    }
                }
                channel.publish();
                published.addAndGet(claimed);
            }
        }

        private static int fixed(java.nio.ByteBuffer slot, long sequence, int length) {
            io.seqlink.backend.FramePattern.fill(slot, 0, length, FrameChecker.seedOf(sequence));
            return length;
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join(30_000);
        }
    }
}

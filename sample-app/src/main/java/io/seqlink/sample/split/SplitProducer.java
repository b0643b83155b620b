package io.seqlink.sample.split;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import io.seqlink.sample.pipeline.FrameLayout;
import io.seqlink.sample.pipeline.ReferenceModel;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The preprocessing stage of the split pipeline: on its own thread, prepares {@code sample.split.rate} frames per
 * second (the synthetic image of a seed, normalised to float32, behind {@link FrameLayout}'s header) and publishes each
 * on the shared channel; attached consumer processes hold it back (lossless) when they fall behind.
 *
 * <p>Phase: starts after seqlink's listener registry and stops before it drains the channel, so every frame published
 * is in the drain's account. {@link #start}, {@link #stop} from the container's thread; {@link #published} any thread.
 */
public final class SplitProducer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SplitProducer.class);
    static final int PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE + 50;

    private final PublishChannel channel;
    private final SplitProperties properties;
    private final ReferenceModel model;
    private final AtomicLong published = new AtomicLong();
    private volatile boolean running;
    private @Nullable Thread thread;

    public SplitProducer(PublishChannel channel, SplitProperties properties) {
        this.channel = channel;
        this.properties = properties;
        this.model = new ReferenceModel(properties.pixels(), properties.classes(), properties.mean(), properties.std(),
                properties.weightSeed());
    }

    /** Frames published so far. */
    public long published() {
        return published.get();
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        Thread t = new Thread(this::run, "split-producer");
        t.setDaemon(true);
        thread = t;
        t.start();
        log.info("split pipeline: producing {} frames/s on shared channel '{}' (sample.split.rate)", properties.rate(),
                channel.name());
    }

    private void run() {
        ReferenceModel.Scratch scratch = model.newScratch();
        long begin = System.nanoTime();
        while (running) {
            long n = published.get();
            if (properties.rate() > 0 && n >= (long) ((System.nanoTime() - begin) / 1e9 * properties.rate())) {
                LockSupport.parkNanos(1_000_000);
                continue;
            }
            long seed = n + 1;
            long seq = channel.claim(100, TimeUnit.MILLISECONDS);
            if (seq == ClaimStatus.BACK_PRESSURED) {
                continue; // the consumers are behind: lossless, so wait for them
            }
            if (seq < 0) {
                log.info("split pipeline: the producer stops, the channel says {}", ClaimStatus.describe(seq));
                return;
            }
            scratch.compute(seed);
            ByteBuffer b = channel.buffer();
            b.putLong(FrameLayout.SEQUENCE, seq).putLong(FrameLayout.SEED, seed).putLong(FrameLayout.PIXELS, model.pixels())
                    .putLong(FrameLayout.INPUT_CHECKSUM, scratch.inputChecksum());
            scratch.writeInput(b, FrameLayout.HEADER_BYTES);
            channel.commit(FrameLayout.frameBytes(model.pixels()));
            channel.publish();
            published.incrementAndGet();
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
        log.info("split pipeline: the producer stopped after {} frames", published.get());
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}

package io.seqlink.sample.pipeline;

import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A camera stand-in: prepares {@code sample.pipeline.source-rate} frames per second in the
 * background, so the status page shows a live pipeline without anyone posting frames. Off at rate 0.
 *
 * <p>Phase: starts after the channel listeners (frames have somewhere to go) and stops before they
 * drain the channels.
 */
public final class FrameSource implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FrameSource.class);

    public static final int PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE + 50;
    /** Seeds of background frames start here, far from the seeds an injection picks by default. */
    static final long SEED_BASE = 1L << 48;
    private static final long TICK_NANOS = 50_000_000;

    private final Pipeline pipeline;
    private final double rate;
    private volatile boolean running;
    private @Nullable Thread thread;

    public FrameSource(Pipeline pipeline) {
        this.pipeline = pipeline;
        this.rate = pipeline.properties().sourceRate();
    }

    @Override
    public synchronized void start() {
        if (running || rate <= 0) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "sample-frame-source");
        thread.setDaemon(true);
        thread.start();
        log.info("sample pipeline: background source prepares {} frames/s (sample.pipeline.source-rate)", rate);
    }

    private void run() {
        long seed = SEED_BASE;
        long start = System.nanoTime();
        long made = 0;
        Duration tick = Duration.ofNanos(TICK_NANOS);
        while (running) {
            long due = (long) ((System.nanoTime() - start) / 1e9 * rate) - made;
            if (due > 0) {
                try {
                    FramePreprocessor.Injection r = pipeline.preprocessor().produce((int) Math.min(due, 10_000), seed, tick);
                    seed += r.published();
                    made += r.published();
                    if (r.published() < due) {
                        // The pipeline is full: skip what could not be made rather than bursting later.
                        made += due - r.published();
                    }
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException ex) {
                    log.warn("sample pipeline: the background source stops: {}", ex.toString());
                    return;
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TICK_NANOS);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
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

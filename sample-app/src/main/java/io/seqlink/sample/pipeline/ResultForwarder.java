package io.seqlink.sample.pipeline;

import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The single producer of every results channel: one thread that watches each inference device's
 * pinned {@code done} word and forwards completed results (see {@link InferenceLane}). It idles with
 * a back-off (spin, yield, then park up to a millisecond) when there is nothing to forward.
 *
 * <p>Phase: it starts before the channel listeners (so results can flow from the first frame) and
 * stops after they have drained the channels. It publishes from a thread of its own, which seqlink's
 * drain refuses like any outside producer: {@link PipelineDrain} waits for its results first.
 */
public final class ResultForwarder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ResultForwarder.class);

    public static final int PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE - 100;

    private final Pipeline pipeline;
    private volatile boolean running;
    private @Nullable Thread thread;

    public ResultForwarder(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "sample-results-forwarder");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
        while (running) {
            try {
                idle.idle(pipeline.forward());
            } catch (RuntimeException ex) {
                // A failed results channel says so in health; keep serving the others.
                pipeline.statistics().forwardingError();
                log.error("sample pipeline: forwarding results failed: {}", ex.toString());
                idle.idle();
            }
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (thread != null) {
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

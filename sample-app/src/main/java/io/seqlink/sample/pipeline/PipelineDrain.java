package io.seqlink.sample.pipeline;

import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Stops the pipeline so that no result is lost: the forwarder is a producer of its own (it publishes
 * results from pinned staging, off seqlink's listener threads), so seqlink's drain cannot see what it
 * still holds. On stop this takes no more frames (the background source stopped just before), then
 * waits until every frame in flight has come back to the collector, or the drain timeout passes;
 * only then do the channel listeners' registry drain the channels and the forwarder stop.
 *
 * <p>Phase: after the background source ({@link FrameSource#PHASE}), before the registry. Started again after a stop,
 * the pipeline takes frames again.
 */
public final class PipelineDrain implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PipelineDrain.class);

    public static final int PHASE = ChannelListenerEndpointRegistry.DEFAULT_PHASE + 25;

    private final Pipeline pipeline;
    private final Duration timeout;
    private volatile boolean running;

    public PipelineDrain(Pipeline pipeline, Duration timeout) {
        this.pipeline = pipeline;
        this.timeout = timeout;
    }

    /**
     * Takes frames (again): a context stopped and started again (Spring's test context pausing, which stops a cached
     * context while other tests run and restarts it when it is used again, or {@code stop()} then {@code start()})
     * gets its pipeline back, as the listener registry resumes delivery.
     */
    @Override
    public void start() {
        pipeline.preprocessor().resume();
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        PipelineStatistics s = pipeline.statistics();
        try {
            pipeline.preprocessor().stop(timeout);
            while (s.inFlight() > 0 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(1_000_000);
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        if (s.inFlight() == 0) {
            log.info("sample pipeline stopped: {} frames produced, {} results collected, {} lost, {} failed checks",
                    s.produced(), s.collected(), s.lost(), s.failures());
        } else {
            log.warn("sample pipeline stopped with {} frame(s) still in flight after {}: {} produced, {} collected", s.inFlight(),
                    timeout, s.produced(), s.collected());
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

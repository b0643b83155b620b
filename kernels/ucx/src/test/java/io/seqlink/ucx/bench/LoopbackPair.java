package io.seqlink.ucx.bench;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;

/**
 * The raw baselines' rig: one UCX context (tcp), a source and a target worker connected over
 * 127.0.0.1, a registered source and target buffer of {@code bytes} each. The source is progressed
 * by the measuring thread, the target by a thread of its own once {@link #startTarget(Runnable)} ran.
 */
final class LoopbackPair implements AutoCloseable {

    final UcpContext context;
    final UcpWorker source;
    final UcpWorker target;
    final UcpEndpoint ep;
    final UcpMemory src;
    final UcpMemory dst;
    private final UcpEndpoint back;
    private final UcpListener listener;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private Thread progress;

    LoopbackPair(long bytes) throws Exception {
        context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature().setConfig("TLS", "tcp"));
        target = context.newWorker(new UcpWorkerParams());
        source = context.newWorker(new UcpWorkerParams());
        AtomicReference<UcpConnectionRequest> request = new AtomicReference<>();
        listener = target.newListener(new UcpListenerParams().setSockAddr(new InetSocketAddress("127.0.0.1", 0))
                .setConnectionHandler(request::set));
        ep = source.newEndpoint(new UcpEndpointParams().setSocketAddress(listener.getAddress()));
        while (request.get() == null) {
            target.progress();
            source.progress();
        }
        back = target.newEndpoint(new UcpEndpointParams().setConnectionRequest(request.get()));
        src = context.memoryMap(new UcpMemMapParams().allocate().setLength(bytes));
        dst = context.memoryMap(new UcpMemMapParams().allocate().setLength(bytes));
    }

    /** Progresses the target on a thread of its own, running {@code each} after every progress call. */
    void startTarget(Runnable each) {
        progress = new Thread(() -> {
            while (running.get()) {
                try {
                    target.progress();
                    each.run();
                } catch (Exception e) {
                    return;
                }
            }
        }, "raw-target");
        progress.start();
    }

    /** Progresses the source until {@code r} completed. */
    void await(UcpRequest r) throws Exception {
        while (!r.isCompleted()) {
            source.progress();
        }
    }

    /** Stops the target's thread, closes both endpoints (at most 2 s), then the workers, buffers and context. */
    @Override
    public void close() {
        running.set(false);
        try {
            if (progress != null) {
                progress.join();
            }
            UcpRequest closing = ep.closeNonBlockingFlush();
            UcpRequest closingBack = back.closeNonBlockingFlush();
            long deadline = System.nanoTime() + 2_000_000_000L;
            while ((!closing.isCompleted() || !closingBack.isCompleted()) && System.nanoTime() < deadline) {
                source.progress();
                target.progress();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("closing the raw baseline's endpoints failed", e);
        } finally {
            listener.close();
            source.close();
            target.close();
            src.deregister();
            dst.deregister();
            context.close();
        }
    }
}

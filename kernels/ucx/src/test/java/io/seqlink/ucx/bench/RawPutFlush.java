package io.seqlink.ucx.bench;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;

/**
 * The baseline: raw JUCX, one registered buffer put into another worker's registered buffer and
 * flushed, one at a time, with the target worker progressed by a thread of its own.
 */
final class RawPutFlush {

    record Result(double mbps, long ops, Histogram latency) {
    }

    private RawPutFlush() {
    }

    static Result run(int size, long nanos) throws Exception {
        try (UcpContext context = new UcpContext(new UcpParams().requestRmaFeature().setConfig("TLS", "tcp"))) {
            UcpWorker target = context.newWorker(new UcpWorkerParams());
            UcpWorker source = context.newWorker(new UcpWorkerParams());
            AtomicReference<UcpConnectionRequest> request = new AtomicReference<>();
            UcpListener listener = target.newListener(new UcpListenerParams()
                    .setSockAddr(new InetSocketAddress("127.0.0.1", 0)).setConnectionHandler(request::set));
            UcpEndpoint ep = source.newEndpoint(new UcpEndpointParams().setSocketAddress(listener.getAddress()));
            while (request.get() == null) {
                target.progress();
                source.progress();
            }
            UcpEndpoint back = target.newEndpoint(new UcpEndpointParams().setConnectionRequest(request.get()));
            UcpMemory dst = context.memoryMap(new UcpMemMapParams().allocate().setLength(size));
            UcpMemory src = context.memoryMap(new UcpMemMapParams().allocate().setLength(size));
            UcpRemoteKey key = ep.unpackRemoteKey(dst.getRemoteKeyBuffer());
            AtomicBoolean running = new AtomicBoolean(true);
            Thread progress = new Thread(() -> {
                while (running.get()) {
                    try {
                        target.progress();
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "raw-target");
            progress.start();
            Histogram latency = new Histogram(3_600_000_000L, 3);
            long ops = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                long t0 = System.nanoTime();
                ep.putNonBlockingImplicit(src.getAddress(), size, dst.getAddress(), key);
                UcpRequest flush = ep.flushNonBlocking(null);
                while (!flush.isCompleted()) {
                    source.progress();
                }
                latency.recordValue(System.nanoTime() - t0);
                ops++;
            }
            double mbps = ops * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
            running.set(false);
            progress.join();
            key.close();
            UcpRequest closing = ep.closeNonBlockingFlush();
            UcpRequest closingBack = back.closeNonBlockingFlush();
            long deadline = System.nanoTime() + 2_000_000_000L;
            while ((!closing.isCompleted() || !closingBack.isCompleted()) && System.nanoTime() < deadline) {
                source.progress();
                target.progress();
            }
            listener.close();
            source.close();
            target.close();
            src.deregister();
            dst.deregister();
            return new Result(mbps, ops, latency);
        }
    }
}

package io.seqlink.ucx.bench;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * Raw JUCX, no seqlink: what the bridge is measured against, on a {@link LoopbackPair}.
 *
 * <ul>
 *   <li>{@link #putFlush}: {@code putsPerFlush} puts of {@code size} bytes into consecutive slots of the
 *       target's buffer, then one flush, waited for: with 1 the serial put + flush round trip (the
 *       latency baseline), with the bridge's window the pipelined throughput baseline;</li>
 *   <li>{@link #activeMessages}: active messages of {@code size} bytes with up to {@code window} in
 *       flight, each copied (eager) or received (rendezvous) into the target's buffer by the target's
 *       thread: the primitive the bridge now carries frames on.</li>
 * </ul>
 */
final class RawBaselines {

    private static final int AM_ID = 7;

    /** Throughput over the run (MB/s, 10^6 B) and the per-flush (or per-message) latency. */
    record Result(double mbps, long ops, Histogram latency) {
    }

    private RawBaselines() {
    }

    static Result putFlush(int size, int putsPerFlush, long nanos) throws Exception {
        try (LoopbackPair pair = new LoopbackPair((long) size * putsPerFlush)) {
            UcpRemoteKey key = pair.ep.unpackRemoteKey(pair.dst.getRemoteKeyBuffer());
            pair.startTarget(() -> { });
            Histogram latency = new Histogram(3_600_000_000L, 3);
            long ops = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                long t0 = System.nanoTime();
                for (int i = 0; i < putsPerFlush; i++) {
                    pair.ep.putNonBlockingImplicit(pair.src.getAddress() + (long) i * size, size,
                            pair.dst.getAddress() + (long) i * size, key);
                }
                pair.await(pair.ep.flushNonBlocking(null));
                latency.recordValue(System.nanoTime() - t0);
                ops += putsPerFlush;
            }
            double mbps = ops * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
            key.close();
            return new Result(mbps, ops, latency);
        }
    }

    static Result activeMessages(int size, int window, long nanos) throws Exception {
        try (LoopbackPair pair = new LoopbackPair((long) size * window)) {
            AtomicLong arrived = new AtomicLong();
            ArrayDeque<UcpRequest> receives = new ArrayDeque<>(); // target thread only
            pair.target.setAmRecvHandler(AM_ID, (header, headerSize, data, replyEp) -> {
                if (data.isDataValid()) {
                    UcxUtils.getByteBufferView(pair.dst.getAddress(), size).put(0,
                            UcxUtils.getByteBufferView(data.getDataAddress(), size), 0, size);
                    arrived.incrementAndGet();
                } else {
                    receives.add(data.receive(pair.dst.getAddress(), null));
                }
                return UcsConstants.STATUS.UCS_OK;
            });
            pair.startTarget(() -> {
                while (!receives.isEmpty() && receives.peek().isCompleted()) {
                    receives.poll();
                    arrived.incrementAndGet();
                }
            });
            Histogram latency = new Histogram(3_600_000_000L, 3);
            ArrayDeque<UcpRequest> inFlight = new ArrayDeque<>();
            ArrayDeque<Long> started = new ArrayDeque<>();
            long sent = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                while (inFlight.size() < window) {
                    started.add(System.nanoTime());
                    inFlight.add(pair.ep.sendAmNonBlocking(AM_ID, 0, 0, pair.src.getAddress(), size, 0, null));
                    sent++;
                }
                pair.source.progress();
                while (!inFlight.isEmpty() && inFlight.peek().isCompleted()) {
                    inFlight.poll();
                    latency.recordValue(System.nanoTime() - started.poll());
                }
            }
            while (!inFlight.isEmpty()) {
                pair.await(inFlight.poll());
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (arrived.get() < sent && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            double mbps = arrived.get() * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
            return new Result(mbps, arrived.get(), latency);
        }
    }
}

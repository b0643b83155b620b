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
 *   <li>{@link #putFlush}: batches of puts, each followed by a flush, the next batch put while the last
 *       flush is in flight, as many puts unconfirmed as the bridge has frames in flight (its window):
 *       the put-based throughput baseline; one put and one flush at a time: the latency baseline;</li>
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

    /**
     * Puts of {@code size} bytes in batches of {@code putsPerFlush}, each batch followed by a flush, with
     * up to {@code flushesInFlight} flushes outstanding: the puts of the next batch go out while the
     * previous batch's flush is in flight (the discipline of a put-based bridge: data, flush, then the
     * sequence), never more than {@code putsPerFlush * flushesInFlight} puts unconfirmed, over slots of
     * the target's buffer used in turn. {@code (1, 1)} is the serial put + flush round trip.
     */
    static Result putFlush(int size, int putsPerFlush, int flushesInFlight, long nanos) throws Exception {
        int slots = putsPerFlush * flushesInFlight;
        try (LoopbackPair pair = new LoopbackPair((long) size * slots)) {
            UcpRemoteKey key = pair.ep.unpackRemoteKey(pair.dst.getRemoteKeyBuffer());
            pair.startTarget(() -> { });
            Histogram latency = new Histogram(3_600_000_000L, 3);
            ArrayDeque<UcpRequest> flushes = new ArrayDeque<>();
            ArrayDeque<Long> started = new ArrayDeque<>();
            long ops = 0;
            int slot = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                if (flushes.size() < flushesInFlight) {
                    started.add(System.nanoTime());
                    for (int i = 0; i < putsPerFlush; i++) {
                        pair.ep.putNonBlockingImplicit(pair.src.getAddress() + (long) slot * size, size,
                                pair.dst.getAddress() + (long) slot * size, key);
                        slot = (slot + 1) % slots;
                    }
                    flushes.add(pair.ep.flushNonBlocking(null));
                }
                pair.source.progress();
                while (!flushes.isEmpty() && flushes.peek().isCompleted()) {
                    flushes.poll();
                    latency.recordValue(System.nanoTime() - started.poll());
                    ops += putsPerFlush;
                }
            }
            while (!flushes.isEmpty()) {
                pair.await(flushes.poll());
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

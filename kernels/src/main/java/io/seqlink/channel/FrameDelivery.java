package io.seqlink.channel;

import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.layout.RingGeometry;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one {@link Round} to its listener: per frame, per batch or per device round, with the
 * subscription's retries (the backoff waits happen here, on the thread that delivers: the port's
 * listener thread, or the caller of {@code poll}), then the dead-letter hook; an error handler that
 * refuses a frame holds the consumer at it. Records each delivered frame's publish-to-ack latency. One
 * round at a time: the counters it writes have this one writer.
 */
final class FrameDelivery {

    private static final Logger log = LoggerFactory.getLogger(FrameDelivery.class);

    private static final int HANDLED = 1;
    private static final int DEAD_LETTERED = 0;
    private static final int HALTED = -1;

    private final ConsumerPort port;
    private final ConsumerTransport transport;
    private final RingGeometry geometry;
    private final PublishTimes publishTimes;
    private final LatencyRecorder latency;
    private final CounterSet counters;
    private final DeviceFramesView deviceFrames;

    FrameDelivery(ConsumerPort port, ConsumerTransport transport, RingGeometry geometry, PublishTimes publishTimes,
            LatencyRecorder latency, CounterSet counters) {
        this.port = port;
        this.transport = transport;
        this.geometry = geometry;
        this.publishTimes = publishTimes;
        this.latency = latency;
        this.counters = counters;
        this.deviceFrames = new DeviceFramesView(port.channel(), port.device(), transport, geometry);
    }

    /** Delivers {@code r}, filling its outcome. Never throws: a device error is kept in the round. */
    void deliver(Round r) {
        try {
            if (r.subscription.kind == Subscription.Kind.DEVICE) {
                deliverDevice(r);
            } else if (r.subscription.kind == Subscription.Kind.BATCH) {
                deliverBatch(r, transport.hostRing());
            } else {
                deliverFrames(r, transport.hostRing());
            }
        } catch (DeviceException ex) {
            r.deviceFailure = ex;
        } finally {
            r.attempt(0);
        }
    }

    private void deliverFrames(Round r, HostRing host) {
        long handledTo = r.validFrom - 1;
        for (long s = r.validFrom; s <= r.to; s++) {
            HostRing.HostFrame f = host.frame(s, 1);
            if (f == null) {
                r.missed++;
                handledTo = s;
                continue;
            }
            int outcome = deliverFrame(r, f);
            if (outcome == HALTED) {
                break;
            }
            handledTo = s;
            r.taken++;
            if (outcome == HANDLED) {
                r.delivered++;
            }
        }
        r.handledTo = handledTo;
        latency.recordRound(r.validFrom, handledTo, host);
    }

    private int deliverFrame(Round r, HostRing.HostFrame frame) {
        RetryPolicy retry = r.subscription.retry;
        Exception last = null;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !backoff(r, retry, attempt)) {
                return HALTED; // the consumer closed while retrying: the frame stays unacknowledged
            }
            r.attempt(attempt);
            try {
                r.subscription.frames.onFrame(frame.rewind(attempt));
                return HANDLED;
            } catch (Exception ex) {
                last = ex;
            }
        }
        return deadLetter(r, frame.rewind(retry.maxAttempts()), last) ? DEAD_LETTERED : HALTED;
    }

    private void deliverBatch(Round r, HostRing host) {
        HostRing.FrameList batch = host.batch;
        batch.size = 0;
        for (long s = r.validFrom; s <= r.to; s++) {
            HostRing.HostFrame f = host.frame(s, 1);
            if (f == null) {
                r.missed++;
                continue;
            }
            batch.frames[batch.size++] = f;
        }
        r.handledTo = r.to;
        if (batch.size == 0) {
            return;
        }
        RetryPolicy retry = r.subscription.retry;
        Exception last = null;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !backoff(r, retry, attempt)) {
                r.handledTo = r.from - 1;
                return;
            }
            r.attempt(attempt);
            for (int i = 0; i < batch.size; i++) {
                batch.frames[i].rewind(attempt);
            }
            try {
                r.subscription.batches.onBatch(batch);
                long now = System.nanoTime();
                for (int i = 0; i < batch.size; i++) {
                    latency.record(batch.frames[i].sequence, now);
                }
                r.taken = (int) (r.to - r.validFrom + 1);
                r.delivered = r.taken;
                return;
            } catch (Exception ex) {
                last = ex;
            }
        }
        for (int i = 0; i < batch.size; i++) {
            HostRing.HostFrame f = batch.frames[i];
            if (!deadLetter(r, f.rewind(retry.maxAttempts()), last)) {
                r.handledTo = f.sequence - 1;
                r.taken = (int) Math.max(0, r.handledTo - r.validFrom + 1);
                return;
            }
        }
        r.taken = (int) (r.to - r.validFrom + 1);
    }

    private void deliverDevice(Round r) {
        deviceFrames.first = r.from;
        deviceFrames.last = r.to;
        RetryPolicy retry = r.subscription.retry;
        Exception last = null;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !backoff(r, retry, attempt)) {
                return; // nothing acknowledged
            }
            r.attempt(attempt);
            try {
                r.subscription.device.onFrames(deviceFrames);
                last = null;
                break;
            } catch (DeviceException ex) {
                throw ex;
            } catch (Exception ex) {
                last = ex;
            }
        }
        if (last != null && !deadLetterDeviceRound(r, last)) {
            return; // halted: nothing acknowledged, the round comes again
        }
        r.handledTo = r.to;
        r.taken = (int) (r.to - r.from + 1);
        if (last == null) { // dead-lettered frames count as dead-lettered, not delivered
            r.delivered = r.taken;
        }
        latency.record(r.to, System.nanoTime());
    }

    /** A device listener gave up on a round: bring its frames to the host and hand each to the error handler. */
    private boolean deadLetterDeviceRound(Round r, Exception cause) {
        HostRing host = transport.hostRing();
        transport.stageToHost(host, r.from, r.to);
        transport.stream.synchronize();
        int attempts = r.subscription.retry.maxAttempts();
        for (long s = r.from; s <= r.to; s++) {
            HostRing.HostFrame frame = host.frame(s, attempts);
            if (frame != null && !deadLetter(r, frame, cause)) {
                return false;
            }
        }
        return true;
    }

    /** Waits before attempt {@code attempt}; false when the consumer stopped (closed, dead) or the thread was interrupted. */
    private boolean backoff(Round r, RetryPolicy retry, int attempt) {
        counters.increment(ConsumerPort.C_RETRIES);
        long deadline = System.nanoTime() + retry.backoffNanos(attempt);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            if (!port.deliverable() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, 10_000_000));
        }
        return port.deliverable();
    }

    /** Hands a frame to the error handler; false when it refused (the consumer then holds at the frame). */
    private boolean deadLetter(Round r, HostRing.HostFrame frame, Exception cause) {
        try {
            r.subscription.errors.onFailedFrame(frame, cause);
            counters.increment(ConsumerPort.C_DEAD_LETTERED);
            return true;
        } catch (Exception ex) {
            r.holdNanos = Math.max(1_000_000, r.subscription.retry.maxBackoff().toNanos());
            log.error("seqlink channel '{}' consumer {}: frame {} failed every retry and the error handler refused it; "
                    + "the consumer holds at that frame and tries again: {}", port.channel(), port.device(), frame.sequence(),
                    ex.toString());
            return false;
        }
    }

    /** The frames of a device round, as a device listener sees them. */
    private static final class DeviceFramesView implements DeviceFrames {
        private final String channel;
        private final int device;
        private final ConsumerTransport transport;
        private final RingGeometry geometry;
        long first;
        long last;

        DeviceFramesView(String channel, int device, ConsumerTransport transport, RingGeometry geometry) {
            this.channel = channel;
            this.device = device;
            this.transport = transport;
            this.geometry = geometry;
        }

        @Override
        public String channel() {
            return channel;
        }

        @Override
        public int consumerDevice() {
            return device;
        }

        @Override
        public long first() {
            return first;
        }

        @Override
        public long last() {
            return last;
        }

        @Override
        public Memory memory() {
            return transport.frameRing;
        }

        @Override
        public long payloadOffset(long sequence) {
            return geometry.payloadOffsetOf(sequence);
        }

        @Override
        public long headerOffset(long sequence) {
            return geometry.offsetOf(sequence);
        }

        @Override
        public Memory descriptor() {
            return transport.block;
        }

        @Override
        public DeviceStream stream() {
            return transport.stream;
        }
    }
}

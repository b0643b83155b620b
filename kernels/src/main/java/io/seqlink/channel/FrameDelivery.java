package io.seqlink.channel;

import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.layout.RingGeometry;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one {@link Round} to its listener: per frame, per batch or per device round, with the
 * subscription's retries, then the dead-letter hook; an error handler that refuses a frame holds the
 * consumer at it. Records each delivered frame's publish-to-ack latency. The device loop delivers
 * inline but never waits: a failure hands the rest of the round, backoff and retries, to the port's
 * listener thread; the caller of {@code poll} waits out its own backoffs. One round at a time: the
 * counters it writes have one writer.
 */
final class FrameDelivery {

    private static final Logger log = LoggerFactory.getLogger(FrameDelivery.class);

    private static final int HANDLED = 1;
    private static final int DEAD_LETTERED = 0;
    private static final int HALTED = -1;
    private static final int RETRY_ELSEWHERE = -2;

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

    /**
     * Delivers {@code r} (or what is left of it), filling its outcome. With {@code mayWait} false (the
     * device loop delivering inline) it never waits: at the first failure it stops and marks the round
     * {@link Round#needsRetry}, and the port's listener thread resumes it, backoff first. Never throws:
     * a device error is kept in the round.
     */
    void deliver(Round r, boolean mayWait) {
        r.needsRetry = false;
        try {
            if (r.subscription.kind == Subscription.Kind.DEVICE) {
                deliverDevice(r, mayWait);
            } else if (r.subscription.kind == Subscription.Kind.BATCH) {
                deliverBatch(r, transport.hostRing(), mayWait);
            } else {
                deliverFrames(r, transport.hostRing(), mayWait);
            }
        } catch (DeviceException ex) {
            r.deviceFailure = ex;
        } finally {
            r.attempt(r.needsRetry ? r.resumeAttempt : 0);
        }
    }

    private void deliverFrames(Round r, HostRing host, boolean mayWait) {
        long start = r.resumeAttempt > 0 ? r.resumeFrom : r.validFrom;
        long handledTo = start - 1;
        for (long s = start; s <= r.to; s++) {
            HostRing.HostFrame f = host.frame(s, 1);
            if (f == null) {
                r.missed++;
                handledTo = s;
                continue;
            }
            if (!r.hand(s)) {
                break; // the channel closed and its drain counted this frame undelivered: it goes to no listener
            }
            int firstAttempt = s == start && r.resumeAttempt > 0 ? r.resumeAttempt : 1;
            int outcome = deliverFrame(r, f, firstAttempt, mayWait);
            if (outcome == RETRY_ELSEWHERE) {
                r.resumeFrom = s;
                break;
            }
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
        latency.recordRound(start, handledTo, host);
    }

    private int deliverFrame(Round r, HostRing.HostFrame frame, int firstAttempt, boolean mayWait) {
        RetryPolicy retry = r.subscription.retry;
        Exception last = r.lastFailure;
        for (int attempt = firstAttempt; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !(mayWait ? backoff(retry, attempt) : retryElsewhere(r, attempt, last))) {
                return mayWait ? HALTED : RETRY_ELSEWHERE; // halted: the consumer closed while retrying, nothing acknowledged
            }
            r.attempt(attempt);
            r.call();
            try {
                r.subscription.frames.onFrame(frame.rewind(attempt));
                r.lastFailure = null;
                return HANDLED;
            } catch (Exception ex) {
                last = ex;
            }
        }
        r.lastFailure = null;
        return deadLetter(r, frame.rewind(retry.maxAttempts()), last) ? DEAD_LETTERED : HALTED;
    }

    private void deliverBatch(Round r, HostRing host, boolean mayWait) {
        HostRing.FrameList batch = host.batch;
        batch.size = 0;
        long missed = 0;
        for (long s = r.validFrom; s <= r.to; s++) {
            HostRing.HostFrame f = host.frame(s, 1);
            if (f == null) {
                missed++;
                continue;
            }
            batch.frames[batch.size++] = f;
        }
        r.missed = missed; // the batch is rebuilt when a retry resumes it
        r.handledTo = r.to;
        if (batch.size == 0) {
            return;
        }
        if (!r.hand(r.to)) {
            r.handledTo = r.from - 1; // the channel closed and its drain counted these undelivered
            return;
        }
        RetryPolicy retry = r.subscription.retry;
        Exception last = r.lastFailure;
        for (int attempt = r.resumeAttempt > 0 ? r.resumeAttempt : 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !(mayWait ? backoff(retry, attempt) : retryElsewhere(r, attempt, last))) {
                r.handledTo = r.from - 1;
                return;
            }
            r.attempt(attempt);
            for (int i = 0; i < batch.size; i++) {
                batch.frames[i].rewind(attempt);
            }
            r.call();
            try {
                r.subscription.batches.onBatch(batch);
                latency.recordRound(r.validFrom, r.to, host); // the batch's frames: the ones the host ring holds
                r.taken = (int) (r.to - r.validFrom + 1);
                r.delivered = r.taken;
                r.lastFailure = null;
                return;
            } catch (Exception ex) {
                last = ex;
            }
        }
        r.lastFailure = null;
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

    private void deliverDevice(Round r, boolean mayWait) {
        deviceFrames.of(r, false);
        if (!r.hand(r.to)) {
            return; // the channel closed and its drain counted these undelivered: nothing acknowledged
        }
        RetryPolicy retry = r.subscription.retry;
        Exception last = r.lastFailure;
        for (int attempt = r.resumeAttempt > 0 ? r.resumeAttempt : 1; attempt <= retry.maxAttempts(); attempt++) {
            if (attempt > 1 && !(mayWait ? backoff(retry, attempt) : retryElsewhere(r, attempt, last))) {
                return; // nothing acknowledged
            }
            r.attempt(attempt);
            r.call();
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
        r.lastFailure = null;
        if (last != null && !deadLetterDeviceRound(r, last)) {
            return; // halted: nothing acknowledged, the round comes again
        }
        deviceRoundHandled(r, last == null); // dead-lettered frames count as dead-lettered, not delivered
    }

    /** A device round's frames are handled (their listener's work, or their dead letters, is enqueued): its outcome. */
    private void deviceRoundHandled(Round r, boolean delivered) {
        r.handledTo = r.to;
        r.taken = (int) (r.to - r.from + 1);
        if (delivered) {
            r.delivered = r.taken;
            r.acknowledgedInKernel = r.listenerAcknowledges();
        }
        latency.record(r.to, System.nanoTime());
    }

    /**
     * An armed device round's listener call, made when the round is armed, before its frame is published: one
     * attempt, never a retry here (a listener that failed is tried again, from attempt 2, by the ordinary round
     * that takes the frame later). Returns whether the listener's work is enqueued, so the round's ack may follow
     * it; otherwise the failure is in {@link Round#lastFailure} (a device error in {@link Round#deviceFailure}),
     * or the channel closed and its drain sealed the count. Never throws.
     */
    boolean deliverArmed(Round r) {
        deviceFrames.of(r, true);
        if (!r.hand(r.to)) {
            return false;
        }
        r.attempt(1);
        r.call();
        try {
            r.subscription.device.onFrames(deviceFrames);
            return true;
        } catch (DeviceException ex) {
            r.deviceFailure = ex;
        } catch (Exception ex) {
            r.lastFailure = ex;
        } finally {
            r.attempt(0);
        }
        return false;
    }

    /** An armed device round landed with its frame (its work and ack were enqueued when it was armed): its outcome. */
    void armedTaken(Round r) {
        deviceRoundHandled(r, true);
    }

    /** The device loop does not wait out a backoff: the round goes to the port's listener thread at {@code attempt}. */
    private static boolean retryElsewhere(Round r, int attempt, Exception last) {
        r.needsRetry = true;
        r.resumeAttempt = attempt;
        r.lastFailure = last;
        return false;
    }

    /**
     * A device listener gave up on a round: bring its frames to the host and hand each to the error handler. A round
     * kernel's round had no consume step: the channel's own goes first, filling the frame ring it stages from.
     */
    private boolean deadLetterDeviceRound(Round r, Exception cause) {
        HostRing host = transport.hostRing();
        if (r.consumedInKernel) {
            transport.consume.enqueue(r.from, r.to, r.number);
        }
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
    private boolean backoff(RetryPolicy retry, int attempt) {
        counters.increment(PortCounters.C_RETRIES);
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
        r.call();
        try {
            r.subscription.errors.onFailedFrame(frame, cause);
            counters.increment(PortCounters.C_DEAD_LETTERED);
            return true;
        } catch (Exception ex) {
            r.holdNanos = Math.max(1_000_000, r.subscription.retry.maxBackoff().toNanos());
            if (!r.subscription.sameListener(port.subscription())) {
                // its listener was removed or replaced: the frame waits for the next one, no retry of this one
                log.debug("seqlink channel '{}' consumer {}: frame {} stays unacknowledged, its listener was removed: {}",
                        port.channel(), port.device(), frame.sequence(), ex.toString());
                return false;
            }
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
        private long first;
        private long last;
        private long round;
        private boolean armed;
        /** The round's one kernel reads the frames in place (no consume step filled a local ring). */
        private boolean inPlace;

        DeviceFramesView(String channel, int device, ConsumerTransport transport, RingGeometry geometry) {
            this.channel = channel;
            this.device = device;
            this.transport = transport;
            this.geometry = geometry;
        }

        /** Shows round {@code r} (armed or not) to the listener. */
        void of(Round r, boolean armedRound) {
            first = r.from;
            last = r.to;
            round = r.number;
            armed = armedRound;
            inPlace = r.consumedInKernel;
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
            return inPlace ? transport.sourceRing : transport.frameRing;
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
        public Memory acknowledgement() {
            return transport.mirror;
        }

        @Override
        public DeviceStream stream() {
            return transport.stream;
        }

        @Override
        public ConsumeKernel consumeHandles() {
            return transport.consume;
        }

        @Override
        public long round() {
            return round;
        }

        @Override
        public boolean armed() {
            return armed;
        }
    }
}

package io.seqlink.sample.pipeline;

import io.micrometer.observation.Observation;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.spring.observation.ChannelObservations;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The traces of the frames one inference lane has in flight: each frame that carries a trace gets its
 * {@code seqlink.process} observation ({@code frames process} on the inference device) as the listener enqueues its
 * inference, kept beside the frame's result record until the forwarder publishes the result, which it does in the
 * observation's scope before stopping it. So the span covers the frame's processing on the device, launch to result,
 * and the result's {@code seqlink.publish} on the results channel is its child: one trace from the request that
 * published the frame to the collector.
 *
 * <p>A frame without a trace (its channel not observed, or the sampler left it out) costs one read of its header's
 * context word and nothing else; nothing is allocated for it.
 *
 * <p>Threads: {@link #begin} and {@link #announce} on the lane's launcher thread, {@link #announced} and {@link #take}
 * on the forwarder thread. The record's entry is written before the launcher's release store of the count that covers
 * it and read after the forwarder's acquire load of that count, so the forwarder sees it without a lock; the forwarder
 * never forwards a record the count does not cover yet. An entry is written again only for the record
 * {@code capacity} later, which the lane admits after the forwarder freed the record (its {@code forwarded} word), long
 * after the forwarder read it.
 */
final class FrameTraces {

    private final @Nullable ChannelObservations observations;
    private final @Nullable Observation[] byRecord;
    /** Records whose entry is written (an observation, or none): released by the launcher thread. */
    private final AtomicLong announced = new AtomicLong();
    /** Forwarder thread: the last record whose observation it took (a record forwarded again after a failure has none). */
    private long taken;

    /**
     * @param observations the starter's observations, {@code null} when Micrometer observation is not set up: no
     *                     frame is traced then
     * @param capacity     the lane's result records
     */
    FrameTraces(@Nullable ChannelObservations observations, int capacity) {
        this.observations = observations;
        this.byRecord = new Observation[capacity];
    }

    // ---- launcher thread --------------------------------------------------------------------------

    /**
     * Starts the observation of frame {@code sequence} of the listener's round, whose result goes into record
     * {@code record}, when the frame carries a trace; records none otherwise. Call it as the frame's inference is
     * enqueued.
     */
    void begin(DeviceFrames frames, long sequence, long record) {
        byRecord[index(record)] = observations == null ? null : observations.startProcess(frames, sequence);
    }

    /** Every record up to {@code records} has its entry: the forwarder may take them. */
    void announce(long records) {
        announced.setRelease(records);
    }

    // ---- forwarder thread -------------------------------------------------------------------------

    /** The records whose entries the forwarder may read. */
    long announced() {
        return announced.getAcquire();
    }

    /**
     * The observation of record {@code record}, once: the forwarder publishes the record's result in its scope and then
     * stops it; {@code null} when the frame carried no trace, or the observation was taken before.
     */
    @Nullable Observation take(long record) {
        if (record <= taken) {
            return null;
        }
        taken = record;
        return byRecord[index(record)];
    }

    /**
     * Stops the observations of records {@code from..to} whose results were never forwarded (the pipeline closed before
     * them), marking them with the reason. Called once neither thread runs any more.
     */
    void abandon(long from, long to) {
        for (long r = Math.max(from, taken + 1); r <= to; r++) {
            Observation o = byRecord[index(r)];
            if (o != null) {
                o.error(new IllegalStateException("the pipeline stopped before this frame's result was forwarded"));
                o.stop();
            }
        }
    }

    private int index(long record) {
        return (int) ((record - 1) % byRecord.length);
    }
}

package io.seqlink.sample.pipeline;

import io.micrometer.observation.Observation;
import io.seqlink.backend.Device;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.observation.ChannelObservations;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One inference device: its copy of the model, a ring of result records on the device, and its
 * results channel back to the collector.
 *
 * <h2>Why results go through a staging ring</h2>
 * The inference runs on the frames consumer's stream (so the frames channel's ack follows it), but the
 * results channel publishes from its own producer stream, and streams of one device are not ordered
 * with each other. The consumer stream therefore writes each result into a device-side staging record
 * and, after the round, a release word ({@code done}) into pinned host memory. The forwarder thread
 * sees {@code done} move, which proves the records are complete, and only then enqueues their copy
 * into the results channel's slots and the publish on the results producer stream. Nothing waits on
 * the GPU: the host decides when to look, as the seqlink launcher does. The consumer stream is never
 * synchronised and the listener never blocks.
 *
 * <h2>Traces</h2>
 * A frame that carries a trace (channel {@code frames} observed) keeps it through the lane: {@link FrameTraces} starts
 * the frame's {@code seqlink.process} observation as its inference is enqueued, and the forwarder publishes the result
 * in that observation's scope, so the results channel's publish continues the frame's trace.
 *
 * <h2>Threads</h2>
 * {@link #infer} runs on the launcher thread of this device (one at a time); {@link #forward()} runs
 * on the forwarder thread, the results channel's single producer. They share only the two pinned
 * words, the traces' entries and the statistics.
 */
final class InferenceLane implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InferenceLane.class);

    private static final int DONE = 0;
    private static final int FORWARDED = 0;

    private final int device;
    private final int shard;
    private final int shards;
    private final int pixels;
    private final int classes;
    private final int resultBytes;
    private final int recordStride;
    private final int capacity;
    private final PublishChannel results;
    private final DeviceBuffer weights;
    private final DeviceBuffer staging;
    /** Written by the consumer stream after each round's records: the number of records complete. */
    private final MappedBuffer done;
    /** Written by the results producer stream after copying records out: the number of records free again. */
    private final MappedBuffer forwarded;
    private final PipelineStatistics.DeviceStatistics stats;
    private final FrameTraces traces;

    // launcher thread of this device
    private @Nullable SampleWork work;
    private @Nullable DeviceStream workStream;
    private long lastFrame;
    private long records;

    // forwarder thread
    private long forwardedRecords;
    private boolean stopped;

    /**
     * Allocates the model and staging ring on {@code device} and computes the weights there.
     *
     * @param shard        this device's index among the {@code shards} inference devices: it infers the frames
     *                     whose sequence {@code s} has {@code (s - 1) % shards == shard}
     * @param observations the starter's observations, which start the traced frames' observations ({@link FrameTraces});
     *                     {@code null}: no frame is traced
     */
    InferenceLane(Device device, int shard, int shards, PublishChannel results, PipelineProperties props, int capacity,
            PipelineStatistics.DeviceStatistics stats, @Nullable ChannelObservations observations) {
        this.device = device.ordinal();
        this.shard = shard;
        this.shards = shards;
        this.pixels = props.pixels();
        this.classes = props.classes();
        this.resultBytes = FrameLayout.resultBytes(classes);
        this.recordStride = roundUp(resultBytes, Memory.ALIGNMENT);
        this.capacity = capacity;
        this.results = results;
        this.stats = stats;
        this.traces = new FrameTraces(observations, capacity);
        this.stats.expectFrom(shard + 1L);
        long weightCount = (long) classes * pixels;
        DeviceBuffer w = null;
        DeviceBuffer s = null;
        MappedBuffer d = null;
        MappedBuffer f = null;
        try {
            w = device.allocate(roundUp(4 * weightCount, Memory.ALIGNMENT));
            s = device.allocate((long) recordStride * capacity);
            d = device.allocateMapped(Memory.ALIGNMENT);
            f = device.allocateMapped(Memory.ALIGNMENT);
            // The weights are generated where they are used, by the same kernels the host reference mirrors.
            try (DeviceStream init = device.newStream("sample-weights-" + device.ordinal());
                 DeviceBuffer raw = device.allocate(roundUp(weightCount, Memory.ALIGNMENT))) {
                SampleWork initWork = new SampleWork(init);
                initWork.fillPattern(raw, 0, weightCount, props.weightSeed());
                initWork.normalize(raw, 0, w, 0, (int) weightCount, ReferenceModel.WEIGHT_MEAN,
                        ReferenceModel.WEIGHT_STD);
                init.synchronize(); // once, at startup: the weights must exist before the first frame
            }
        } catch (RuntimeException ex) {
            closeQuietly(w, s, d, f);
            throw ex;
        }
        this.weights = w;
        this.staging = s;
        this.done = d;
        this.forwarded = f;
    }

    int device() {
        return device;
    }

    PublishChannel results() {
        return results;
    }

    /** Whether frame {@code sequence} is this device's to infer. */
    boolean owns(long sequence) {
        return (sequence - 1) % shards == shard;
    }

    /** The highest frame sequence this lane has handled (inferred, or skipped as another device's). */
    long lastFrame() {
        return lastFrame;
    }

    // ---- launcher thread --------------------------------------------------------------------------

    /**
     * Enqueues the inference of this device's frames of one consume round on the consumer stream:
     * per frame, the header copy, the received-data checksum, {@code y = W x} and its checksum, all
     * into one staging record (and the frame's trace beside it); then one release write of the record count. Never
     * waits, allocates nothing for a frame without a trace, and is idempotent when the round is delivered again after a
     * failure.
     */
    void infer(DeviceFrames frames) {
        DeviceStream stream = frames.stream();
        SampleWork work = this.work;
        if (work == null || stream != workStream) {
            workStream = stream;
            work = new SampleWork(stream);
            this.work = work;
        }
        Memory ring = frames.memory();
        long before = records;
        try {
            for (long s = Math.max(frames.first(), lastFrame + 1); s <= frames.last(); s++) {
                if (owns(s)) {
                    long r = records + 1;
                    if (r - forwarded.getAcquire(FORWARDED) > capacity) {
                        // Cannot happen while the producer respects sample.pipeline.max-in-flight; thrown rather
                        // than waited on, so the launcher thread (which may also run the collector) never blocks.
                        throw new IllegalStateException("device " + device + ": all " + capacity + " result records are "
                                + "waiting to be forwarded; frame " + s + " has no room (is the collector running?)");
                    }
                    long rec = ((r - 1) % capacity) * recordStride;
                    long payload = frames.payloadOffset(s);
                    long x = payload + FrameLayout.HEADER_BYTES;
                    stream.copy(ring, payload, staging, rec, FrameLayout.COPIED_HEADER_BYTES);
                    work.checksum(ring, x, 4L * pixels, staging, rec + FrameLayout.RECEIVED_CHECKSUM);
                    work.matvec(weights, 0, ring, x, staging, rec + FrameLayout.HEADER_BYTES, classes, pixels);
                    work.checksum(staging, rec + FrameLayout.HEADER_BYTES, 4L * classes, staging,
                            rec + FrameLayout.OUTPUT_CHECKSUM);
                    stream.writeValue(staging, rec + FrameLayout.DEVICE, device);
                    traces.begin(frames, s, r);
                    records = r;
                }
                lastFrame = s;
            }
        } finally {
            if (records != before) {
                traces.announce(records); // before the count below, which the forwarder waits for as well
                // Release-ordered after every record above: the forwarder may copy them once it sees this.
                stream.writeValue(done, DONE, records);
                stats.inferred(records - before);
            }
        }
    }

    // ---- forwarder thread -------------------------------------------------------------------------

    /**
     * Publishes the records the consumer stream has completed on the results channel: claims a slot per
     * record, copies the record into it on the results producer stream, and publishes them with one
     * release add. A record whose frame carries a trace is committed inside its observation's scope (the results
     * channel's publish observation is its child), which then stops. Returns how many it forwarded; stops early (and
     * tries again next time) when the results channel has no free slot.
     */
    int forward() {
        if (stopped) {
            return 0;
        }
        long ready = Math.min(done.getAcquire(DONE), traces.announced());
        if (ready == forwardedRecords) {
            return 0;
        }
        DeviceStream out = results.producerStream();
        Memory ring = results.ring();
        int n = 0;
        int unpublished = 0;
        try {
            while (forwardedRecords < ready) {
                long seq = results.tryClaim();
                if (seq == ClaimStatus.BATCH_FULL) {
                    results.publish();
                    unpublished = 0;
                    continue;
                }
                if (seq < 0) {
                    if (seq != ClaimStatus.BACK_PRESSURED) {
                        stopped = true;
                        log.warn("sample pipeline: results channel '{}' of device {} is {}; its results are no longer "
                                + "forwarded", results.name(), device, ClaimStatus.describe(seq));
                    }
                    break;
                }
                long r = forwardedRecords + 1;
                Observation trace = traces.take(r);
                if (trace == null) {
                    commit(r, seq, out, ring);
                } else {
                    try (Observation.Scope scope = trace.openScope()) {
                        commit(r, seq, out, ring);
                    } catch (RuntimeException | Error ex) {
                        trace.error(ex);
                        throw ex;
                    } finally {
                        trace.stop();
                    }
                }
                forwardedRecords = r;
                n++;
                unpublished++;
            }
        } finally {
            // Also when a call above failed: what was committed is published, and what was copied is freed.
            if (unpublished > 0) {
                results.publish();
            }
            if (n > 0) {
                // After the copies on the same stream: the staging records up to here may be written again.
                out.writeValue(forwarded, FORWARDED, forwardedRecords);
                stats.forwarded(n);
            }
        }
        return n;
    }

    /** Enqueues the copy of record {@code r} into the claimed slot {@code seq} and commits it. */
    private void commit(long r, long seq, DeviceStream out, Memory ring) {
        out.copy(staging, ((r - 1) % capacity) * recordStride, ring, results.payloadOffset(seq), resultBytes);
        results.commitDevice(resultBytes);
    }

    /** Frees the lane's memory; the traces of results never forwarded end here. Once the listener and forwarder stopped. */
    @Override
    public void close() {
        traces.abandon(forwardedRecords + 1, records);
        closeQuietly(weights, staging, done, forwarded);
    }

    private static void closeQuietly(@Nullable AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception ex) {
                    log.debug("sample pipeline: closing {} failed: {}", r, ex.toString());
                }
            }
        }
    }

    private static int roundUp(int value, int multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** Allocations in whole 128-byte lines (the emulated backend's aligned slice needs it; harmless on CUDA). */
    private static long roundUp(long value, int multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }
}

package io.seqlink.sample.pipeline;

import io.seqlink.backend.FramePattern;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ListenerContext;
import java.nio.ByteBuffer;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector on the producer's device: takes every result from every inference device's results
 * channel and checks it end to end.
 *
 * <ul>
 * <li>the result's device is the channel's producer, and its frames arrive from each device in the
 *     sharded order ({@code shard + 1, shard + 1 + n, ...}): nothing lost, duplicated or reordered;</li>
 * <li>the checksum the producer device took of the normalised frame equals the one the inference
 *     device took of what it received: the frame crossed the frames channel intact;</li>
 * <li>the checksum the inference device took of its output equals the checksum of the bytes that
 *     arrived here: the result crossed its results channel intact;</li>
 * <li>for every {@code verify-every}-th result, the host recomputes the frame from its seed and the
 *     inference from the weights ({@link ReferenceModel}) and compares every bit.</li>
 * </ul>
 * A failed check is counted and logged (the pipeline's health turns DOWN), never thrown: a corrupted
 * result would be corrupted again on every retry. Nothing is allocated unless a check fails.
 */
public final class ResultCollector {

    private static final Logger log = LoggerFactory.getLogger(ResultCollector.class);

    private final PipelineStatistics stats;
    private final ReferenceModel model;
    private final int shards;
    private final int resultBytes;
    private final int verifyEvery;
    private final Map<Integer, Lane> lanes;

    ResultCollector(PipelineStatistics stats, ReferenceModel model, Map<Integer, PipelineStatistics.DeviceStatistics> devices,
            int verifyEvery) {
        this.stats = stats;
        this.model = model;
        this.shards = devices.size();
        this.resultBytes = FrameLayout.resultBytes(model.classes());
        this.verifyEvery = verifyEvery;
        this.lanes = Map.copyOf(devices.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Lane(e.getValue(), model.newScratch()))));
    }

    /** The listener of every results channel's consumer (registered per channel by the pipeline). */
    public void collect(Frame frame, ListenerContext context) {
        long now = System.nanoTime();
        int device = context.producer();
        Lane lane = lanes.get(device);
        ByteBuffer p = frame.payload();
        if (lane == null) {
            fail(null, "channel '" + context.channel() + "' is produced by device " + device + ", which runs no inference");
            return;
        }
        if (frame.length() != resultBytes) {
            fail(lane.stats, "device " + device + " sent a result of " + frame.length() + " bytes; expected " + resultBytes);
            return;
        }
        long sequence = p.getLong(FrameLayout.SEQUENCE);
        long seed = p.getLong(FrameLayout.SEED);
        long pixels = p.getLong(FrameLayout.PIXELS);
        long inputChecksum = p.getLong(FrameLayout.INPUT_CHECKSUM);
        long receivedChecksum = p.getLong(FrameLayout.RECEIVED_CHECKSUM);
        long outputChecksum = p.getLong(FrameLayout.OUTPUT_CHECKSUM);
        long origin = p.getLong(FrameLayout.DEVICE);

        stats.collected(sequence, now);
        lane.stats.recordCollected();
        long expected = lane.stats.expectedNext();
        lane.stats.expectFrom(sequence + shards);
        if (origin != device) {
            fail(lane.stats, "result on channel '" + context.channel() + "' says it comes from device " + origin
                    + ", but the channel's producer is device " + device);
            return;
        }
        if (sequence != expected) {
            fail(lane.stats, "device " + device + " returned frame " + sequence + " where frame " + expected
                    + " was due: a frame was lost, duplicated or reordered");
            return;
        }
        if (pixels != model.pixels()) {
            fail(lane.stats, "frame " + sequence + " has " + pixels + " pixels; the pipeline makes " + model.pixels());
            return;
        }
        if (receivedChecksum != inputChecksum) {
            fail(lane.stats, "frame " + sequence + " changed on its way to device " + device + ": checksum "
                    + Long.toHexString(receivedChecksum) + " there, " + Long.toHexString(inputChecksum) + " at the producer");
            return;
        }
        long arrived = FramePattern.checksum(p, FrameLayout.HEADER_BYTES, 4 * model.classes());
        if (arrived != outputChecksum) {
            fail(lane.stats, "the result of frame " + sequence + " changed on its way from device " + device + ": checksum "
                    + Long.toHexString(arrived) + " here, " + Long.toHexString(outputChecksum) + " there");
            return;
        }
        if (++lane.sinceFull >= verifyEvery) {
            lane.sinceFull = 0;
            ReferenceModel.Scratch ref = lane.scratch;
            ref.compute(seed);
            if (ref.inputChecksum() != inputChecksum) {
                fail(lane.stats, "frame " + sequence + " (seed " + seed + ") was not prepared as the host computes it: "
                        + "input checksum " + Long.toHexString(inputChecksum) + ", expected " + Long.toHexString(ref.inputChecksum()));
                return;
            }
            for (int r = 0; r < model.classes(); r++) {
                int bits = p.getInt(FrameLayout.HEADER_BYTES + 4 * r);
                if (bits != ref.outputBits(r)) {
                    fail(lane.stats, "device " + device + " computed output " + r + " of frame " + sequence + " as "
                            + Float.intBitsToFloat(bits) + "; the host computes " + ref.output(r));
                    return;
                }
            }
            stats.recordVerifiedFully();
        }
    }

    private void fail(PipelineStatistics.@Nullable DeviceStatistics device, String message) {
        if (device != null) {
            device.failure();
        }
        stats.failure(message);
        log.error("sample pipeline: result check failed: {}", message);
    }

    /** Per inference device: its counters and the collector's scratch for it. */
    private static final class Lane {
        final PipelineStatistics.DeviceStatistics stats;
        final ReferenceModel.Scratch scratch;
        int sinceFull;

        Lane(PipelineStatistics.DeviceStatistics stats, ReferenceModel.Scratch scratch) {
            this.stats = stats;
            this.scratch = scratch;
        }
    }
}

package io.seqlink.sample.pipeline;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendKind;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import io.seqlink.spring.observation.ChannelObservations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The article's pipeline assembled on the configured channels: the producer device prepares frames
 * on the frames channel; each consumer device of that channel infers its share of them and sends the
 * results on its own results channel (a channel has one producer); the collector on the results
 * channels' consumer device checks them.
 *
 * <pre>
 *   POST /api/frames, background source
 *        |
 *   [device 0] FramePreprocessor: pattern -> normalise -> checksum, into the slot; publish
 *        |  channel "frames" (every inference device sees every frame, infers frames (s-1) % n == its index)
 *        v
 *   [device d] InferenceLane.infer (a @ChannelListener taking DeviceFrames): matvec + checksums -> staging
 *        |  forwarder thread: staging -> slot of channel "results-d"; publish
 *        v
 *   [device 0] ResultCollector.collect: checksums, order, and the host's own recomputation
 * </pre>
 *
 * <p>It publishes through the channels' beans ({@code channelBeans}), as a service built on the starter does, so what
 * the starter puts around an observed channel (its publish observation) applies; and it carries each traced frame's
 * trace through the inference lane to the results channel ({@link FrameTraces}).
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Pipeline.class);

    private final SeqlinkRuntime runtime;
    private final PipelineProperties props;
    private final PipelineStatistics stats;
    private final ReferenceModel model;
    private final PublishChannel frames;
    private final Map<Integer, InferenceLane> lanes = new LinkedHashMap<>();
    private final FramePreprocessor preprocessor;
    private final ResultCollector collector;

    /**
     * @param channelBeans the channel beans by channel name (an observed channel's bean wraps the runtime's channel);
     *                     a channel without one is published through the runtime's
     * @param observations the starter's observations, {@code null} without Micrometer observation: no frame is traced
     */
    public Pipeline(SeqlinkRuntime runtime, PipelineProperties props, Map<String, PublishChannel> channelBeans,
            @Nullable ChannelObservations observations) {
        this.runtime = runtime;
        this.props = props;
        List<Violation> problems = validate(runtime, props);
        if (!problems.isEmpty()) {
            throw new SeqlinkConfigurationException(problems);
        }
        this.frames = bean(runtime.channel(props.framesChannel()).orElseThrow(), channelBeans);
        List<Integer> inference = frames.consumerDevices();
        this.stats = new PipelineStatistics(props.maxInFlight());
        this.model = new ReferenceModel(props.pixels(), props.classes(), props.mean(), props.std(), props.weightSeed());
        Map<Integer, PipelineStatistics.DeviceStatistics> deviceStats = new LinkedHashMap<>();
        try {
            for (int i = 0; i < inference.size(); i++) {
                int d = inference.get(i);
                PipelineStatistics.DeviceStatistics ds = stats.device(d);
                deviceStats.put(d, ds);
                PublishChannel results = bean(runtime.channel(resultsChannel(d)).orElseThrow(), channelBeans);
                // The credit bound keeps at most max-in-flight records outstanding in all lanes together.
                lanes.put(d, new InferenceLane(runtime.backend().device(d), i, inference.size(), results, props,
                        props.maxInFlight(), ds, observations));
            }
            this.preprocessor = new FramePreprocessor(frames, runtime.backend().device(frames.spec().producer()), props, stats);
        } catch (RuntimeException ex) {
            lanes.values().forEach(InferenceLane::close);
            throw ex;
        }
        this.collector = new ResultCollector(stats, model, deviceStats, props.verifyEvery());
        if (runtime.backendKind() == BackendKind.EMULATED) {
            // the runtime has said why in its one line; this says what it means for the sample
            log.info("sample pipeline: on the emulated backend the same protocol and kernels run in Java, no GPU involved; "
                    + "use a GPU profile (gpu1, gpu2, gpu8) on a machine with GPUs");
        }
        log.info("sample pipeline: device {} prepares {}-pixel frames on '{}'; devices {} infer {} classes; results on {}",
                frames.spec().producer(), props.pixels(), frames.name(), inference, props.classes(),
                inference.stream().map(this::resultsChannel).toList());
    }

    private static PublishChannel bean(PublishChannel channel, Map<String, PublishChannel> beans) {
        return beans.getOrDefault(channel.name(), channel);
    }

    /** Everything wrong with the sample's configuration against the runtime's channels, each with its fix. */
    static List<Violation> validate(SeqlinkRuntime runtime, PipelineProperties props) {
        List<Violation> v = new ArrayList<>();
        String p = "sample.pipeline.";
        if (props.pixels() < 1) {
            v.add(new Violation(p + "pixels", "must be at least 1, was " + props.pixels(), "set a positive image size, e.g. 1024"));
        }
        if (props.classes() < 1) {
            v.add(new Violation(p + "classes", "must be at least 1, was " + props.classes(), "set a positive class count, e.g. 16"));
        }
        if (!(props.std() > 0) || !Float.isFinite(props.std())) {
            v.add(new Violation(p + "std", "must be a positive number, was " + props.std(), "set e.g. 0.25"));
        }
        if (!Float.isFinite(props.mean())) {
            v.add(new Violation(p + "mean", "must be a finite number, was " + props.mean(), "set e.g. 0.5"));
        }
        if (props.maxInFlight() < 1) {
            v.add(new Violation(p + "max-in-flight", "must be at least 1, was " + props.maxInFlight(), "set e.g. 256"));
        }
        if (props.verifyEvery() < 1) {
            v.add(new Violation(p + "verify-every", "must be at least 1, was " + props.verifyEvery(),
                    "set 1 to recompute every result on the host, or n for every n-th"));
        }
        if (!(props.sourceRate() >= 0) || !Double.isFinite(props.sourceRate())) {
            v.add(new Violation(p + "source-rate", "must be 0 or a positive number of frames per second, was "
                    + props.sourceRate(), "set 0 to turn the background source off"));
        }
        if (props.maxInject() < 1) {
            v.add(new Violation(p + "max-inject", "must be at least 1, was " + props.maxInject(), "set e.g. 10000"));
        }
        if (props.publishTimeout() == null || props.publishTimeout().isNegative()) {
            v.add(new Violation(p + "publish-timeout", "must not be negative, was " + props.publishTimeout(), "set e.g. 5s"));
        }
        List<String> names = runtime.channels().stream().map(PublishChannel::name).toList();
        Optional<PublishChannel> found = runtime.channel(props.framesChannel());
        if (found.isEmpty()) {
            v.add(new Violation(p + "frames-channel", "there is no channel '" + props.framesChannel() + "'; the channels are "
                    + names, "configure seqlink.channels." + props.framesChannel() + " or name one of " + names));
            return v;
        }
        PublishChannel frames = found.get();
        String fp = "seqlink.channels." + frames.name() + ".";
        int frameBytes = FrameLayout.frameBytes(Math.max(props.pixels(), 0));
        if (frames.spec().slotBytes() < frameBytes) {
            v.add(new Violation(fp + "slot-size", "is " + frames.spec().slotBytes() + "B, but a frame of " + props.pixels()
                    + " pixels takes " + frameBytes + "B (64B header + 4B per pixel)", "set slot-size to at least "
                    + frameBytes + "B, or lower sample.pipeline.pixels"));
        }
        if (frames.spec().delivery() != Delivery.LOSSLESS) {
            v.add(new Violation(fp + "delivery", "is " + frames.spec().delivery() + "; the sample checks that every frame "
                    + "comes back, which only lossless delivery promises", "set delivery to lossless"));
        }
        int resultBytes = FrameLayout.resultBytes(Math.max(props.classes(), 0));
        for (int d : frames.consumerDevices()) {
            String name = props.resultsChannelPrefix() + d;
            Optional<PublishChannel> results = runtime.channel(name);
            if (results.isEmpty()) {
                v.add(new Violation("seqlink.channels." + name, "inference device " + d + " (a consumer of '" + frames.name()
                        + "') needs a results channel named '" + name + "'; the channels are " + names,
                        "configure seqlink.channels." + name + " with producer " + d + " and consumers ["
                        + frames.spec().producer() + "]"));
                continue;
            }
            PublishChannel r = results.get();
            String rp = "seqlink.channels." + name + ".";
            if (r.spec().producer() != d) {
                v.add(new Violation(rp + "producer", "is " + r.spec().producer() + ", but inference device " + d
                        + " publishes on it", "set producer to " + d));
            }
            if (r.spec().slotBytes() < resultBytes) {
                v.add(new Violation(rp + "slot-size", "is " + r.spec().slotBytes() + "B, but a result of " + props.classes()
                        + " classes takes " + resultBytes + "B", "set slot-size to at least " + resultBytes
                        + "B, or lower sample.pipeline.classes"));
            }
            if (r.spec().delivery() != Delivery.LOSSLESS) {
                v.add(new Violation(rp + "delivery", "is " + r.spec().delivery() + "; every result must reach the collector",
                        "set delivery to lossless"));
            }
        }
        return v;
    }

    String resultsChannel(int device) {
        return props.resultsChannelPrefix() + device;
    }

    /** The device listener on the frames channel: one call per consume round, on that device's launcher thread. */
    void infer(DeviceFrames round) {
        InferenceLane lane = lanes.get(round.consumerDevice());
        if (lane == null) {
            throw new IllegalStateException("device " + round.consumerDevice() + " consumes '" + frames.name()
                    + "' but has no inference lane");
        }
        lane.infer(round);
    }

    /** Forwards completed results of every lane; the forwarder thread only. Returns the work done. */
    int forward() {
        int n = 0;
        for (InferenceLane lane : lanes.values()) {
            n += lane.forward();
        }
        return n;
    }

    /**
     * A frame of the frames channel was dead-lettered on device {@code frame.consumerDevice()}: if it was
     * that device's to infer and was not inferred, it will never come back, so its credit is returned.
     */
    void frameDeadLettered(Frame frame, Exception cause) {
        InferenceLane lane = lanes.get(frame.consumerDevice());
        if (lane != null && lane.owns(frame.sequence()) && frame.sequence() > lane.lastFrame()) {
            stats.lost("frame " + frame.sequence() + " was dead-lettered on device " + frame.consumerDevice() + ": " + cause);
        }
    }

    public FramePreprocessor preprocessor() {
        return preprocessor;
    }

    public ResultCollector collector() {
        return collector;
    }

    public PipelineStatistics statistics() {
        return stats;
    }

    public PipelineProperties properties() {
        return props;
    }

    public PublishChannel frames() {
        return frames;
    }

    public List<String> resultsChannels() {
        return lanes.values().stream().map(l -> l.results().name()).toList();
    }

    public SeqlinkRuntime runtime() {
        return runtime;
    }

    @Override
    public void close() {
        preprocessor.close();
        lanes.values().forEach(InferenceLane::close);
    }
}

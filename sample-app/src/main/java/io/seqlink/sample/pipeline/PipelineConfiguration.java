package io.seqlink.sample.pipeline;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.ChannelSpecCustomizer;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.backend.BackendKind;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ChannelListenerEndpoint;
import io.seqlink.spring.listener.ChannelListenerEndpointRegistry;
import io.seqlink.spring.listener.ListenerContext;
import io.seqlink.spring.listener.LoggingFrameErrorHandler;
import io.seqlink.spring.observation.ChannelObservations;
import io.seqlink.spring.support.BackendReasons;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the pipeline into the seqlink starter: the inference stage as a {@code @ChannelListener} bean,
 * the collector registered on every results channel, the forwarder, the background source and the
 * drain on stop as lifecycle beans, the dead-letter hook, a {@code pipeline} health indicator and the sample's metrics.
 * {@code sample.pipeline.enabled=false} (the {@code verify} command) leaves all of it out.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PipelineProperties.class)
@ConditionalOnBooleanProperty(name = "sample.pipeline.enabled", matchIfMissing = true)
public class PipelineConfiguration {

    /**
     * The pipeline over the channels' beans (observed ones wrapped by the starter) and, where Micrometer observation is
     * set up, the starter's {@link ChannelObservations}, which start the traced frames' observations in the inference
     * lanes.
     */
    @Bean(destroyMethod = "close")
    Pipeline pipeline(SeqlinkRuntime runtime, PipelineProperties properties, ObjectProvider<PublishChannel> channels,
            ObjectProvider<ChannelObservations> observations) {
        Map<String, PublishChannel> byName = new LinkedHashMap<>();
        channels.orderedStream().forEach(c -> byName.put(c.name(), c));
        return new Pipeline(runtime, properties, byName, observations.getIfAvailable());
    }

    @Bean
    InferenceListener inferenceListener(Pipeline pipeline) {
        return new InferenceListener(pipeline);
    }

    /**
     * The collector below is registered in code, so the starter cannot find it among the {@code @ChannelListener}
     * methods: its results channels are named here as channels with a host listener, and each inference device's
     * publish step pushes its results into host memory, where the collector reads them in place.
     */
    @Bean
    ChannelSpecCustomizer resultsReadInHostMemory(PipelineProperties properties) {
        return (name, spec) -> name.startsWith(properties.resultsChannelPrefix()) ? spec.withHostListeners(spec.consumers()) : spec;
    }

    /**
     * The collector takes every results channel, whose number depends on the topology, so it is bound in
     * code rather than by one annotation per channel: through the same registry as {@code @ChannelListener}
     * methods, so retries, the dead-letter hook, the endpoint's listener ids and the shutdown drain apply.
     */
    @Bean
    SmartInitializingSingleton resultCollectorRegistration(Pipeline pipeline, ChannelListenerEndpointRegistry registry) {
        return () -> {
            Method collect;
            try {
                collect = ResultCollector.class.getMethod("collect", Frame.class, ListenerContext.class);
            } catch (NoSuchMethodException ex) {
                throw new IllegalStateException(ex);
            }
            List<ChannelListenerEndpoint> endpoints = new ArrayList<>();
            for (String channel : pipeline.resultsChannels()) {
                endpoints.add(new ChannelListenerEndpoint("collector." + channel, "pipeline", pipeline.collector(), collect,
                        channel, ChannelListener.ALL_DEVICES, ChannelListenerEndpoint.Kind.FRAME, 1, 0));
            }
            registry.registerAll(endpoints);
        };
    }

    @Bean
    ResultForwarder resultForwarder(Pipeline pipeline) {
        return new ResultForwarder(pipeline);
    }

    @Bean
    FrameSource frameSource(Pipeline pipeline) {
        return new FrameSource(pipeline);
    }

    /** Lets the frames in flight come back before seqlink drains, within {@code seqlink.shutdown.drain-timeout}. */
    @Bean
    PipelineDrain pipelineDrain(Pipeline pipeline, SeqlinkProperties seqlink) {
        return new PipelineDrain(pipeline, seqlink.shutdown().drainTimeout());
    }

    /**
     * The dead-letter hook: logs like the starter's default, and tells the pipeline, which counts the frame
     * as lost and returns its credit (otherwise the producer would wait for a result that never comes).
     */
    @Bean
    FrameErrorHandler sampleFrameErrorHandler(Pipeline pipeline) {
        FrameErrorHandler logging = new LoggingFrameErrorHandler();
        return (frame, cause) -> {
            logging.onFailedFrame(frame, cause);
            if (frame.channel().equals(pipeline.frames().name())) {
                pipeline.frameDeadLettered(frame, cause);
            } else {
                pipeline.statistics().lost("result " + frame.sequence() + " on '" + frame.channel() + "' was dead-lettered: "
                        + cause);
            }
        };
    }

    /**
     * {@code /actuator/health} component {@code pipeline}: DOWN once a result failed its checks (the data
     * path corrupted something: that needs a person); says which backend runs and why.
     */
    @Bean
    HealthIndicator pipelineHealthIndicator(Pipeline pipeline) {
        return () -> {
            PipelineStatistics s = pipeline.statistics();
            SeqlinkRuntime rt = pipeline.runtime();
            Health.Builder b = s.failures() == 0 ? Health.up() : Health.down();
            b.withDetail("backend", rt.backendKind().name().toLowerCase(Locale.ROOT))
                    .withDetail("backendReason", BackendReasons.summary(rt));
            if (rt.backendKind() == BackendKind.EMULATED) {
                b.withDetail("note", "running on the emulated backend: the pipeline's protocol and kernels run in Java, "
                        + "no GPU is used");
            }
            b.withDetail("framesChannel", pipeline.frames().name())
                    .withDetail("resultsChannels", pipeline.resultsChannels())
                    .withDetail("produced", s.produced())
                    .withDetail("collected", s.collected())
                    .withDetail("inFlight", s.inFlight())
                    .withDetail("verifiedFully", s.verifiedFully())
                    .withDetail("failures", s.failures())
                    .withDetail("forwardingErrors", s.forwardingErrors());
            if (s.lastFailure() != null) {
                b.withDetail("lastFailure", s.lastFailure());
            }
            return b.build();
        };
    }

    /** {@code sample_pipeline_*} meters, read from the statistics when scraped. */
    @Bean
    MeterBinder samplePipelineMetrics(Pipeline pipeline) {
        return registry -> {
            PipelineStatistics s = pipeline.statistics();
            FunctionCounter.builder("sample.pipeline.frames.produced", s, PipelineStatistics::produced)
                    .description("Frames prepared and published on the frames channel").register(registry);
            FunctionCounter.builder("sample.pipeline.results.collected", s, PipelineStatistics::collected)
                    .description("Results the collector took").register(registry);
            FunctionCounter.builder("sample.pipeline.results.verified", s, PipelineStatistics::verifiedFully)
                    .description("Results the host recomputed and found identical").register(registry);
            FunctionCounter.builder("sample.pipeline.failures", s, PipelineStatistics::failures)
                    .description("Results that failed a check, and frames lost").register(registry);
            Gauge.builder("sample.pipeline.in.flight", s, PipelineStatistics::inFlight)
                    .description("Frames prepared and not yet collected").register(registry);
            for (PipelineStatistics.DeviceStatistics d : s.devices()) {
                FunctionCounter.builder("sample.pipeline.inferred", d, PipelineStatistics.DeviceStatistics::inferred)
                        .tag("device", String.valueOf(d.device()))
                        .description("Frames an inference device ran the model on").register(registry);
            }
        };
    }
}

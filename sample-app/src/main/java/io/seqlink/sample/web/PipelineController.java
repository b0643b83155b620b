package io.seqlink.sample.web;

import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.PublishChannel;
import io.seqlink.sample.pipeline.Pipeline;
import io.seqlink.sample.pipeline.PipelineStatistics;
import io.seqlink.spring.support.BackendReasons;
import io.seqlink.spring.support.ChannelSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/pipeline}: the pipeline's statistics, per stage and per inference device. */
@RestController
@ConditionalOnBooleanProperty(name = "sample.pipeline.enabled", matchIfMissing = true)
public class PipelineController {

    private final Pipeline pipeline;

    public PipelineController(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    @GetMapping("/api/pipeline")
    public Map<String, Object> statistics() {
        PipelineStatistics s = pipeline.statistics();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("backend", pipeline.runtime().backendKind().name().toLowerCase(Locale.ROOT));
        out.put("backendReason", BackendReasons.summary(pipeline.runtime()));
        out.put("devices", pipeline.runtime().devices());
        out.put("framesChannel", pipeline.frames().name());
        out.put("producerDevice", pipeline.frames().spec().producer());
        out.put("resultsChannels", pipeline.resultsChannels());
        out.put("pixels", pipeline.properties().pixels());
        out.put("classes", pipeline.properties().classes());
        out.put("sourceRate", pipeline.properties().sourceRate());
        out.put("produced", s.produced());
        out.put("injections", s.injections());
        out.put("inFlight", s.inFlight());
        out.put("collected", s.collected());
        out.put("verifiedFully", s.verifiedFully());
        out.put("failures", s.failures());
        out.put("lost", s.lost());
        out.put("forwardingErrors", s.forwardingErrors());
        out.put("lastFailure", s.lastFailure());
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("count", s.latencyCount());
        latency.put("meanMicros", s.meanLatencyMicros());
        latency.put("maxMicros", s.maxLatencyMicros());
        out.put("endToEndLatency", latency);
        List<Map<String, Object>> devices = new ArrayList<>();
        for (PipelineStatistics.DeviceStatistics d : s.devices()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("device", d.device());
            m.put("resultsChannel", pipeline.properties().resultsChannelPrefix() + d.device());
            m.put("inferred", d.inferred());
            m.put("forwarded", d.forwarded());
            m.put("collected", d.collected());
            m.put("failures", d.failures());
            devices.add(m);
        }
        out.put("inference", devices);
        Map<String, Object> channels = new LinkedHashMap<>();
        for (PublishChannel ch : pipeline.runtime().channels()) {
            ChannelSnapshot snap = ChannelSnapshots.of(ch);
            if (snap != null) {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("state", snap.state().name().toLowerCase(Locale.ROOT));
                c.put("published", snap.publishedOnDevice());
                c.put("maxLag", snap.maxLag());
                c.put("backpressured", snap.backpressured());
                channels.put(ch.name(), c);
            }
        }
        out.put("channels", channels);
        out.put("uptimeSeconds", Math.round(s.uptimeSeconds() * 10) / 10.0);
        return out;
    }
}

package io.seqlink.autoconfigure.observation;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.spring.observation.ChannelObservations;
import io.seqlink.topology.VerifierSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What tracing costs per frame, without a Spring context: one channel (producer device 0, a host listener on device 1,
 * or on device 0 when there is one device) driven flat out by one producer thread through {@code offer}, with the
 * observation wrappers the starter puts on an observed channel ({@link ChannelObservations}) over Micrometer Tracing on
 * Brave (W3C propagation, every span handed to a handler that only counts it). Four modes: tracing off (the runtime's
 * channel itself), on but unsampled (probability 0), 1% and 100%. Prints a table and writes JSON.
 *
 * <pre>
 *   java -cp &lt;classpath&gt; io.seqlink.autoconfigure.observation.TracingCost --backend emulated|cuda
 *        [--frames 200000] [--warmup 20000] [--slot-size 256] [--slots 1024] [--json tracing-cost.json]
 * </pre>
 */
public final class TracingCost {

    /** One mode's result; {@code producerBytesPerFrame} and {@code listenerBytesPerFrame} from the threads' allocation. */
    public record Row(String mode, double probability, long frames, double nsPerFrame, double framesPerSecond,
            double producerBytesPerFrame, double listenerBytesPerFrame, long spans, long listenerSpans, long framesWithContext) {
    }

    private TracingCost() {
    }

    public static void main(String[] args) throws Exception {
        String backend = "emulated";
        long frames = 200_000;
        long warmup = 20_000;
        int slotSize = 256;
        int slots = 1024;
        Path json = Path.of("tracing-cost.json");
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--backend" -> backend = value;
                case "--frames" -> frames = Long.parseLong(value);
                case "--warmup" -> warmup = Long.parseLong(value);
                case "--slot-size" -> slotSize = Integer.parseInt(value);
                case "--slots" -> slots = Integer.parseInt(value);
                case "--json" -> json = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use --backend emulated|cuda, --frames N, --warmup N, --slot-size B, --slots N, --json FILE");
            }
            i++;
        }
        BackendSelection selection = switch (backend) {
            case "emulated" -> BackendSelection.EMULATED;
            case "cuda" -> BackendSelection.CUDA;
            default -> throw new IllegalArgumentException("--backend " + backend + ": use emulated or cuda");
        };
        // an untimed first pass: the JVM compiles the channel's paths there, not in whichever mode would come first
        run(selection, -1, warmup, frames, slotSize, slots);
        List<Row> rows = new ArrayList<>();
        for (double p : new double[] {-1, 0, 0.01, 1.0}) {
            rows.add(run(selection, p, warmup, frames, slotSize, slots));
        }
        String table = table(backend, rows);
        System.out.print(table);
        Files.writeString(json, json(backend, frames, slotSize, rows), StandardCharsets.UTF_8);
        System.out.println("wrote " + json.toAbsolutePath());
    }

    /** {@code probability} below 0: tracing off. */
    public static Row run(BackendSelection selection, double probability, long warmup, long frames, int slotSize, int slots)
            throws InterruptedException {
        String mode = probability < 0 ? "off" : probability == 0 ? "on, unsampled" : probability >= 1 ? "on, 100%"
                : String.format(Locale.ROOT, "on, %s%%", trim(probability * 100));
        AtomicLong spans = new AtomicLong();
        AtomicLong listenerSpans = new AtomicLong();
        try (Tracing tracing = Tracing.newBuilder().traceId128Bit(true).propagationFactory(new W3CPropagation())
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build()).addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(brave.propagation.TraceContext context, MutableSpan span, Cause cause) {
                        spans.incrementAndGet();
                        if (span.kind() == brave.Span.Kind.CONSUMER) {
                            listenerSpans.incrementAndGet();
                        }
                        return false; // counted, not kept
                    }
                }).build();
                SeqlinkRuntime rt = runtime(selection).open()) {
            ObservationRegistry registry = tracingRegistry(tracing);
            String name = "tracing-cost";
            ChannelObservations observations = new ChannelObservations(registry,
                    Map.of(name, new ChannelObservations.Settings(probability >= 0, Math.max(0, probability))), null, null);
            int consumer = rt.devices().size() > 1 ? rt.devices().get(1) : rt.devices().get(0);
            PublishChannel raw = rt.openChannel(ChannelSpec.builder(name).producer(rt.devices().get(0)).consumers(consumer)
                    .slots(slots).slotBytes(slotSize).hostListeners(consumer).build());
            PublishChannel channel = observations.observe(raw);
            Listener listener = new Listener(warmup + frames);
            ConsumerPort port = raw.consumer(consumer);
            port.subscribe(observations.observe(port, listener));
            rt.start();
            ByteBuffer src = ByteBuffer.allocateDirect(Math.min(64, slotSize)).order(ByteOrder.LITTLE_ENDIAN);
            offer(channel, src, 1, warmup);
            await(port, warmup);
            long spansBefore = spans.get();
            long listenerSpansBefore = listenerSpans.get();
            long contextsBefore = listener.withContext;
            listener.mark = true;
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            offer(channel, src, warmup + 1, warmup + frames);
            await(port, warmup + frames);
            long elapsed = System.nanoTime() - start;
            long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            double listenerBytes = (double) (listener.allocatedAtEnd - listener.allocatedAtMark) / Math.max(1, frames - 1);
            return new Row(mode, probability, frames, (double) elapsed / frames, frames * 1e9 / elapsed,
                    (double) allocated / frames, listenerBytes, spans.get() - spansBefore, listenerSpans.get() - listenerSpansBefore,
                    listener.withContext - contextsBefore);
        }
    }

    private static SeqlinkRuntime.Builder runtime(BackendSelection selection) {
        SeqlinkRuntime.Builder b = SeqlinkRuntime.builder().backend(selection)
                .verifier(VerifierSettings.defaults().withEnabled(false))
                .launcher(new LauncherSettings(IdleStrategyKind.BACKOFF, 256, Duration.ofMillis(100)));
        return selection == BackendSelection.EMULATED ? b.emulated(EmulatedTopology.allNvlink(2)) : b;
    }

    private static void offer(PublishChannel channel, ByteBuffer src, long first, long last) {
        for (long id = first; id <= last; ) {
            src.putLong(0, id);
            if (channel.offer(src) > 0) {
                id++;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static void await(ConsumerPort port, long acknowledged) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (port.acknowledged() < acknowledged) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the listener took " + port.acknowledged() + " of " + acknowledged
                        + " frames in 5 minutes: " + port.snapshot());
            }
            Thread.sleep(1);
        }
    }

    /** Counts frames with a context; reads its own thread's allocation at the first measured frame and the last. */
    private static final class Listener implements FrameHandler {
        private final long last;
        private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        volatile boolean mark;
        private boolean marked;
        volatile long allocatedAtMark;
        volatile long allocatedAtEnd;
        volatile long withContext;

        Listener(long last) {
            this.last = last;
        }

        @Override
        public void onFrame(Frame frame) {
            if (frame.hasContext()) {
                withContext++;
            }
            if (mark && !marked) {
                marked = true;
                allocatedAtMark = threads.getCurrentThreadAllocatedBytes();
            }
            if (frame.payload().getLong(0) == last) {
                allocatedAtEnd = threads.getCurrentThreadAllocatedBytes();
            }
        }
    }

    static String table(String backend, List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "tracing cost, %s backend, %d frames per mode%n", backend, rows.get(0).frames()));
        b.append(String.format(Locale.ROOT, "%-16s %12s %14s %16s %16s %10s %10s%n", "mode", "ns/frame", "frames/s",
                "producer B/frame", "listener B/frame", "spans", "contexts"));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-16s %12.1f %14.0f %16.1f %16.1f %10d %10d%n", r.mode(), r.nsPerFrame(),
                    r.framesPerSecond(), r.producerBytesPerFrame(), r.listenerBytesPerFrame(), r.spans(), r.framesWithContext()));
        }
        return b.toString();
    }

    static String json(String backend, long frames, int slotSize, List<Row> rows) {
        StringBuilder b = new StringBuilder("{\n  \"backend\": \"").append(backend).append("\",\n  \"frames\": ").append(frames)
                .append(",\n  \"slotSize\": ").append(slotSize).append(",\n  \"rows\": [\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            b.append(String.format(Locale.ROOT, "    {\"mode\": \"%s\", \"probability\": %s, \"nsPerFrame\": %.1f, "
                    + "\"framesPerSecond\": %.0f, \"producerBytesPerFrame\": %.2f, \"listenerBytesPerFrame\": %.2f, "
                    + "\"spans\": %d, \"listenerSpans\": %d, \"framesWithContext\": %d}%s%n", r.mode(), r.probability() < 0 ? "null"
                            : trim(r.probability()), r.nsPerFrame(), r.framesPerSecond(), r.producerBytesPerFrame(),
                    r.listenerBytesPerFrame(), r.spans(), r.listenerSpans(), r.framesWithContext(), i + 1 < rows.size() ? "," : ""));
        }
        return b.append("  ]\n}\n").toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * An observation registry whose handlers make Brave spans and carry their context in and out of frames, as Spring
     * Boot's tracing auto-configuration wires them.
     */
    static ObservationRegistry tracingRegistry(Tracing tracing) {
        return tracingRegistry(new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager()), new BravePropagator(tracing));
    }

    /** The same over a given tracer and propagator (a test's beans). */
    static ObservationRegistry tracingRegistry(Tracer tracer, Propagator propagator) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        return registry;
    }
}

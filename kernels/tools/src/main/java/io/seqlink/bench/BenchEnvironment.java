package io.seqlink.bench;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.Backend;
import io.seqlink.backend.BackendKind;
import io.seqlink.backend.BackendProvider;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.Backends;
import io.seqlink.backend.DriverDetection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.PublishChannel;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.layout.RingGeometry;
import io.seqlink.topology.LinkVerdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One runtime for the whole harness run (opening a CUDA backend costs a driver initialisation and
 * link probes), the devices the scenarios use, and the per-backend settlement of sizes and counts.
 */
final class BenchEnvironment implements AutoCloseable {

    /** Frames above this size are measured with at most {@link #LARGE_FRAME_CAP} frames, as the C++ comparator does. */
    static final long LARGE_FRAME = 65536;
    static final int LARGE_FRAME_CAP = 2000;
    /** The fewest frames any measurement takes, whatever the byte budget says. */
    static final int MIN_FRAMES = 50;

    private final BenchOptions options;
    private final SeqlinkRuntime runtime;
    private final int producer;
    private final int consumer;
    private final long ringBudget;
    private final long bytesPerSize;
    private final long copyBytes;
    private final AtomicInteger names = new AtomicInteger();
    private final Set<String> transports = new LinkedHashSet<>();

    private BenchEnvironment(BenchOptions options, SeqlinkRuntime runtime, int producer, int consumer) {
        this.options = options;
        this.runtime = runtime;
        this.producer = producer;
        this.consumer = consumer;
        boolean emulated = runtime.backendKind() == BackendKind.EMULATED;
        this.ringBudget = options.ringBudgetBytes() > 0 ? options.ringBudgetBytes() : emulated ? 64L << 20 : 256L << 20;
        this.bytesPerSize = options.bytesPerSize() > 0 ? options.bytesPerSize() : emulated ? 1L << 30 : Long.MAX_VALUE;
        this.copyBytes = options.copyBytes() > 0 ? options.copyBytes() : emulated ? 32L << 20 : 256L << 20;
    }

    /** Opens the backend and verifies only the link the scenarios use (not every pair of an 8-GPU host). */
    static BenchEnvironment open(BenchOptions options) {
        int count = expectedDeviceCount(options);
        int p = options.producer();
        int c = options.consumer() >= 0 ? options.consumer() : count > 1 ? (p == 0 ? 1 : 0) : p;
        if (p >= count) {
            throw new BadOptionException("--producer", "device " + p + " does not exist (" + count + " device(s))",
                    "pick a device from 0 to " + (count - 1));
        }
        if (c >= count) {
            throw new BadOptionException("--consumer", "device " + c + " does not exist (" + count + " device(s))",
                    "pick a device from 0 to " + (count - 1));
        }
        return new BenchEnvironment(options, runtimeBuilder(options, p, c).open(), p, c);
    }

    /** A runtime of the options' backend on the producer and consumer devices, probing only their link. */
    private static SeqlinkRuntime.Builder runtimeBuilder(BenchOptions options, int p, int c) {
        EmulatedTopology topology = EmulatedTopology.builder(options.emulatedDevices()).streamMode(options.emulatedStreams()).build();
        SeqlinkRuntime.Builder b = SeqlinkRuntime.builder().backend(options.backend()).emulated(topology)
                .devices(p == c ? List.of(p) : List.of(p, c)).openChannels(false);
        if (p != c) {
            // named so that the runtime probes this one link at startup, and no other
            b.channel(ChannelSpec.builder("bench-link").producer(p).consumers(c).build());
        }
        return b;
    }

    /**
     * A second runtime like {@link #runtime()}, started, with the launcher's default settings (the Spring starter's):
     * for rows whose consumers the launcher drives. The caller closes it.
     */
    SeqlinkRuntime openStartedRuntime() {
        SeqlinkRuntime rt = runtimeBuilder(options, producer, consumer).launcher(LauncherSettings.defaults()).open();
        try {
            rt.start();
            return rt;
        } catch (RuntimeException ex) {
            rt.close();
            throw ex;
        }
    }

    /** Devices the selected backend will have: the driver's count for CUDA, the emulated topology's otherwise. */
    private static int expectedDeviceCount(BenchOptions options) {
        if (options.backend() == BackendSelection.EMULATED) {
            return options.emulatedDevices();
        }
        BackendProvider cuda = Backends.cudaProvider();
        DriverDetection d = cuda == null ? null : cuda.detect();
        if (d != null && d.usable()) {
            return d.deviceCount();
        }
        return options.backend() == BackendSelection.CUDA ? Math.max(1, options.producer() + 1) : options.emulatedDevices();
    }

    SeqlinkRuntime runtime() {
        return runtime;
    }

    Backend backend() {
        return runtime.backend();
    }

    BenchOptions options() {
        return options;
    }

    boolean emulated() {
        return runtime.backendKind() == BackendKind.EMULATED;
    }

    int producer() {
        return producer;
    }

    int consumer() {
        return consumer;
    }

    boolean sameDevice() {
        return producer == consumer;
    }

    /** How producer and consumer are placed, in words, for every table. */
    String topology() {
        String where = sameDevice() ? "two streams of one " + kindWord() + " (device " + producer + ")"
                : "two " + kindWord() + "s (" + producer + " -> " + consumer + ")";
        return emulated() ? where + ", emulated CPU reference, " + options.emulatedStreams().name().toLowerCase(java.util.Locale.ROOT)
                + " streams" : where;
    }

    private String kindWord() {
        return emulated() ? "emulated device" : "GPU";
    }

    /** Consumer devices of a fan-out of {@code k}: distinct devices other than the producer, or one device's streams. */
    List<Integer> fanOutDevices(int k) {
        List<Integer> out = new ArrayList<>();
        int count = backend().deviceCount();
        if (count > 1) {
            for (int d = 0; d < count && out.size() < k; d++) {
                if (d != producer) {
                    out.add(d);
                }
            }
        } else {
            for (int i = 0; i < k; i++) {
                out.add(producer);
            }
        }
        return out;
    }

    /** The fan-out sweep's largest consumer count. */
    int maxConsumers() {
        if (options.maxConsumers() > 0) {
            return backend().deviceCount() > 1 ? Math.min(options.maxConsumers(), backend().deviceCount() - 1) : options.maxConsumers();
        }
        return backend().deviceCount() > 1 ? backend().deviceCount() - 1 : 4;
    }

    /** Ring slots for frames of {@code size}: the configured count, fewer where the ring would exceed the budget. */
    int slotsFor(long size) {
        long stride = RingGeometry.strideFor(size);
        long fit = Math.max(4, ringBudget / stride);
        return (int) Math.min(options.slots(), fit);
    }

    /** Timed frames for {@code size}: the comparator's cap above 64 KiB, then the byte budget. */
    int framesFor(long size) {
        int f = size > LARGE_FRAME ? Math.min(options.frames(), LARGE_FRAME_CAP) : options.frames();
        long byBudget = Math.max(MIN_FRAMES, bytesPerSize / size);
        return (int) Math.min(f, byBudget);
    }

    /** Warm-up frames for {@code size}: enough for the JIT on small frames, a few hundred on large ones. */
    int warmupFor(long size) {
        int w = size > LARGE_FRAME ? Math.min(options.warmup(), 200) : options.warmup();
        long byBudget = Math.max(20, bytesPerSize / 4 / size);
        return (int) Math.min(w, byBudget);
    }

    long copyBytes() {
        return copyBytes;
    }

    /** The largest ring per channel. */
    long ringBudget() {
        return ringBudget;
    }

    long bytesPerSize() {
        return bytesPerSize;
    }

    /** A channel from the producer to {@code consumers}; names are unique within the run. */
    PublishChannel openChannel(String purpose, List<Integer> consumers, long slotBytes, int slots,
            io.seqlink.channel.ReadMode readMode) {
        return openChannel(runtime, spec(purpose, consumers, slotBytes, slots, readMode).build());
    }

    /**
     * The spec of a channel from the producer to {@code consumers} (a unique name, the run's transport, a 30 s stall
     * timeout), for the caller to finish.
     */
    ChannelSpec.Builder spec(String purpose, List<Integer> consumers, long slotBytes, int slots, io.seqlink.channel.ReadMode readMode) {
        return ChannelSpec.builder("bench-" + purpose + "-" + names.incrementAndGet()).producer(producer)
                .consumers(consumers).slots(slots).slotBytes(slotBytes).readMode(readMode).transport(options.transport())
                .stallTimeout(Duration.ofSeconds(30));
    }

    /** Opens {@code spec} on {@code rt} (the harness's runtime or another), noting the transports its consumers use. */
    PublishChannel openChannel(SeqlinkRuntime rt, ChannelSpec spec) {
        PublishChannel ch = rt.openChannel(spec);
        for (int c : spec.consumers() == null ? List.<Integer>of() : spec.consumers()) {
            synchronized (transports) {
                transports.add(ch.consumer(c).transport().name());
            }
        }
        return ch;
    }

    /** The transports the run's channels used, e.g. [PEER_ATOMIC]. */
    List<String> transportsUsed() {
        synchronized (transports) {
            return List.copyOf(transports);
        }
    }

    /** Closes a scenario's channel without letting a failure there hide the scenario's result. */
    static void closeQuietly(@Nullable PublishChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.drainAndClose(Duration.ofSeconds(2));
        } catch (RuntimeException ex) {
            System.err.println("seqlink-bench: closing channel " + ch.name() + ": " + ex);
        }
    }

    /** The verifier's figures for the producer -> consumer link, if it was probed. */
    Optional<LinkVerdict> link() {
        if (sameDevice() || runtime.topology() == null) {
            return Optional.empty();
        }
        return runtime.topology().link(producer, consumer);
    }

    /** What the run ran on, for the report's header. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", runtime.backendKind().name().toLowerCase(java.util.Locale.ROOT));
        m.put("backend_description", backend().description());
        m.put("backend_reason", runtime.backendReason());
        List<Object> devices = new ArrayList<>();
        for (int d = 0; d < backend().deviceCount(); d++) {
            Map<String, Object> dev = new LinkedHashMap<>();
            dev.put("ordinal", d);
            dev.put("name", backend().device(d).name());
            devices.add(dev);
        }
        m.put("devices", devices);
        m.put("producer", producer);
        m.put("consumer", consumer);
        m.put("topology", topology());
        link().ifPresent(v -> {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("verdict", v.verdict().name());
            l.put("reason", v.reason());
            if (v.probe() != null) {
                l.put("atomic_add_latency_ns", v.probe().atomicAddLatencyNs());
                l.put("acquire_load_latency_ns", v.probe().acquireLoadLatencyNs());
            }
            m.put("link", l);
        });
        return m;
    }

    @Override
    public void close() {
        runtime.close();
    }
}

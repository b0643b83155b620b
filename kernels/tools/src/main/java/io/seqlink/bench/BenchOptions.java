package io.seqlink.bench;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The harness's command line, parsed and checked. Every bad value raises a {@link BadOptionException}
 * naming the flag and the fix. Values that depend on the backend (ring and copy sizes, the byte
 * budget) stay {@code 0} here when not given and are settled by {@link BenchEnvironment}.
 */
record BenchOptions(
        BackendSelection backend,
        Path out,
        Set<Scenario> scenarios,
        long schemeDurationNanos,
        int schemeThreads,
        int schemePacketBytes,
        long[] sizes,
        int frames,
        int warmup,
        int slots,
        Transport transport,
        long ringBudgetBytes,
        long bytesPerSize,
        int producer,
        int consumer,
        int maxConsumers,
        long fanoutBytes,
        int pipelineFrames,
        int pipelinePixels,
        int pipelineRows,
        ReadMode pipelineReadMode,
        long copyBytes,
        @Nullable String comparator,
        long comparatorTimeoutNanos,
        int emulatedDevices,
        EmulatedTopology.StreamMode emulatedStreams,
        boolean quick,
        boolean help,
        List<String> commandLine) {

    static final long[] DEFAULT_SIZES = {64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20, 16 << 20};
    static final long[] QUICK_SIZES = {64, 1024, 16384, 262144, 1 << 20, 16 << 20};

    static String usage() {
        return """
                seqlink benchmark harness: the source article's schemes, the Java channel path against the C++
                comparator, the alternatives, sweeps and the sync share; a Markdown table on stdout, JSON and an
                SVG plot in --out.

                usage: java -cp <jars> io.seqlink.bench.BenchMain [options]     (or: the sample's 'bench' command)

                  --backend auto|cuda|emulated   backend (default auto: CUDA when a driver and GPU are present)
                  --out DIR                      where bench-results.{md,json} and bench-plot.svg go (default bench-results)
                  --scenarios LIST               any of schemes,sweep,comparator,fanout,pipeline,copy,host, or all
                                                 (default: all but host; host is the host listener's rows against
                                                 the hand-written device-to-host copy, scripts/gpu/host-path-run.sh)
                  --duration D                   per article scheme, e.g. 30s, 5s, 500ms (default 30s, as the article)
                  --threads N / --packet N       producer and consumer threads / bytes per packet of the schemes (256 / 64)
                  --sizes LIST                   frame sizes, e.g. 64,1K,16K,1M,16M (default 64 B to 16 MiB, x4 steps)
                  --frames N                     timed frames per size (default 20000; at most 2000 above 64 KiB)
                  --warmup N                     untimed frames per size first, for the JIT (default 5000)
                  --slots N                      ring slots (default 64; fewer where a ring would exceed --ring-budget)
                  --transport T                  auto|peer-atomic|peer-copy|host-staged|same-device: force the
                                                 channels' transport (default auto: what the link verifier chose)
                  --ring-budget SIZE             largest ring per channel (default 256M on CUDA, 64M emulated)
                  --bytes-per-size SIZE          most payload bytes one measurement moves (default unlimited on
                                                 CUDA, 1G emulated): caps the frames of large sizes
                  --producer D / --consumer D    devices (default 0 and 1; 0 and 0 on a one-GPU host: two streams)
                  --max-consumers N              fan-out sweep up to N consumers (default devices-1; 4 streams on one GPU)
                  --fanout-bytes SIZE            frame size of the fan-out sweep (default 16K)
                  --pipeline-frames N            frames per pipeline run (default 500)
                  --pipeline-pixels N            8-bit pixels per frame, expanded to 32-bit words (default 50176 = 224x224)
                  --pipeline-rows N              rows of the per-frame integer matrix-vector product (default 64)
                  --pipeline-read-mode M         direct|copy: how the consumer reads frames (default direct)
                  --copy-bytes SIZE              bytes per copy of the copy-bandwidth measurement (default 256M CUDA, 32M emulated)
                  --comparator PATH|none         the C++ comparator binary (default: $SEQLINK_CYCLE_BENCH,
                                                 .gpu/native/seqlink-cycle-bench, kernels/target/native/seqlink-cycle-bench)
                  --comparator-timeout D         limit per comparator run (default 300s)
                  --emulated-devices N           devices of the emulated backend (default 4)
                  --emulated-streams inline|threaded   how emulated streams run (default inline)
                  --quick                        a short run: 6 sizes, 2000 frames, 1 s schemes, 200 pipeline frames
                  --help                         this text

                exit status: 0 every scenario ran and every frame verified; 1 a scenario failed or a frame was corrupt
                (the rest still ran and the report says which); 2 bad options. Targets that are missed are reported,
                not turned into an exit status.
                """;
    }

    static BenchOptions parse(String[] args) {
        Builder b = new Builder();
        List<String> argv = List.of(args);
        for (String a : argv) {
            if (a.equals("--quick")) {
                b.quickDefaults();
            }
        }
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            String flag = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                flag = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (flag.equals("--help") || flag.equals("-h")) {
                b.help = true;
                continue;
            }
            if (flag.equals("--quick")) {
                continue;
            }
            if (!flag.startsWith("--")) {
                throw new BadOptionException(flag, "unexpected argument", "options start with --; see --help");
            }
            if (value == null) {
                if (i + 1 >= argv.size()) {
                    throw new BadOptionException(flag, "needs a value", "write " + flag + " VALUE; see --help");
                }
                value = argv.get(++i);
            }
            b.set(flag, value);
        }
        b.commandLine = argv;
        return b.build();
    }

    /** What the report echoes of the options (its {@code environment.options}). */
    record Echo(String backend, List<String> scenarios, double schemeDurationS, int schemeThreads, int schemePacketBytes,
            List<Long> sizes, int frames, int warmup, int slots, String transport, int producer, int consumer, long fanoutBytes,
            int pipelineFrames, int pipelinePixels, int pipelineRows, String pipelineReadMode, boolean quick,
            List<String> commandLine) {
    }

    /** The options for the report. */
    Echo echo() {
        return new Echo(backend.name().toLowerCase(Locale.ROOT), scenarios.stream().map(Scenario::id).toList(),
                schemeDurationNanos / 1e9, schemeThreads, schemePacketBytes, Arrays.stream(sizes).boxed().toList(), frames, warmup,
                slots, transport.name().toLowerCase(Locale.ROOT), producer, consumer, fanoutBytes, pipelineFrames, pipelinePixels,
                pipelineRows, pipelineReadMode.name().toLowerCase(Locale.ROOT), quick, commandLine);
    }

    /** Mutable state of the parse. */
    private static final class Builder {
        BackendSelection backend = BackendSelection.AUTO;
        Path out = Path.of("bench-results");
        Set<Scenario> scenarios = Scenario.standard();
        long schemeDuration = 30_000_000_000L;
        int schemeThreads = 256;
        int schemePacket = 64;
        long[] sizes = DEFAULT_SIZES.clone();
        int frames = 20_000;
        int warmup = 5_000;
        int slots = 64;
        Transport transport = Transport.AUTO;
        long ringBudget;
        long bytesPerSize;
        int producer;
        int consumer = -1;
        int maxConsumers = -1;
        long fanoutBytes = 16384;
        int pipelineFrames = 500;
        int pipelinePixels = 224 * 224;
        int pipelineRows = 64;
        ReadMode pipelineReadMode = ReadMode.DIRECT;
        long copyBytes;
        @Nullable String comparator;
        long comparatorTimeout = 300_000_000_000L;
        int emulatedDevices = 4;
        EmulatedTopology.StreamMode emulatedStreams = EmulatedTopology.StreamMode.INLINE;
        boolean quick;
        boolean help;
        List<String> commandLine = List.of();

        void quickDefaults() {
            quick = true;
            sizes = QUICK_SIZES.clone();
            frames = 2_000;
            warmup = 1_000;
            schemeDuration = 1_000_000_000L;
            pipelineFrames = 200;
        }

        void set(String flag, String v) {
            switch (flag) {
                case "--backend" -> backend = choice(flag, v, BackendSelection.class);
                case "--out" -> out = Path.of(v);
                case "--scenarios" -> scenarios = scenarios(flag, v);
                case "--duration" -> schemeDuration = Units.parseDurationNanos(flag, v);
                case "--threads" -> {
                    schemeThreads = integer(flag, v, 32, 1024);
                    if (schemeThreads % 32 != 0) {
                        throw new BadOptionException(flag, schemeThreads + " is not a multiple of 32", "use 32, 64, ..., 1024 (a block of whole warps)");
                    }
                }
                case "--packet" -> {
                    schemePacket = integer(flag, v, 16, 1 << 20);
                    if (schemePacket % 8 != 0) {
                        throw new BadOptionException(flag, schemePacket + " is not a multiple of 8", "use a multiple of 8 of at least 16, e.g. 64");
                    }
                }
                case "--sizes" -> sizes = sizes(flag, v);
                case "--frames" -> frames = integer(flag, v, 10, 100_000_000);
                case "--warmup" -> warmup = integer(flag, v, 0, 100_000_000);
                case "--slots" -> slots = integer(flag, v, 4, 1 << 20);
                case "--transport" -> transport = choice(flag, v, Transport.class);
                case "--ring-budget" -> ringBudget = Units.parseBytes(flag, v);
                case "--bytes-per-size" -> bytesPerSize = Units.parseBytes(flag, v);
                case "--producer" -> producer = integer(flag, v, 0, 63);
                case "--consumer" -> consumer = integer(flag, v, 0, 63);
                case "--max-consumers" -> maxConsumers = integer(flag, v, 1, 63);
                case "--fanout-bytes" -> fanoutBytes = bytesAtMost(flag, v, 1L << 30);
                case "--pipeline-frames" -> pipelineFrames = integer(flag, v, 10, 10_000_000);
                case "--pipeline-pixels" -> pipelinePixels = integer(flag, v, 8, 1 << 26);
                case "--pipeline-rows" -> pipelineRows = integer(flag, v, 1, 1 << 20);
                case "--pipeline-read-mode" -> pipelineReadMode = choice(flag, v, ReadMode.class);
                case "--copy-bytes" -> copyBytes = bytesAtMost(flag, v, 1L << 30);
                case "--comparator" -> comparator = v;
                case "--comparator-timeout" -> comparatorTimeout = Units.parseDurationNanos(flag, v);
                case "--emulated-devices" -> emulatedDevices = integer(flag, v, 1, 64);
                case "--emulated-streams" -> emulatedStreams = choice(flag, v, EmulatedTopology.StreamMode.class);
                default -> throw new BadOptionException(flag, "unknown option", "see --help for the options");
            }
        }

        BenchOptions build() {
            long largestSlot = Arrays.stream(sizes).max().orElse(0);
            if (largestSlot > 1L << 30) {
                throw new BadOptionException("--sizes", "a frame of " + Units.bytes(largestSlot) + " exceeds a slot's 1 GiB limit",
                        "keep every size at 1G or below");
            }
            if (pipelinePixels % 8 != 0) {
                throw new BadOptionException("--pipeline-pixels", pipelinePixels + " is not a multiple of 8",
                        "use a multiple of 8 (frames are moved in 64-bit words), e.g. 50176");
            }
            long weights = 4L * pipelinePixels * pipelineRows;
            if (weights > 1L << 30) {
                throw new BadOptionException("--pipeline-rows", "rows x pixels x 4 = " + Units.bytes(weights) + " of weights exceeds 1 GiB",
                        "lower --pipeline-rows or --pipeline-pixels");
            }
            return new BenchOptions(backend, out, scenarios, schemeDuration, schemeThreads, schemePacket, sizes, frames, warmup, slots,
                    transport, ringBudget, bytesPerSize, producer, consumer, maxConsumers, fanoutBytes, pipelineFrames, pipelinePixels,
                    pipelineRows, pipelineReadMode, copyBytes, comparator, comparatorTimeout, emulatedDevices, emulatedStreams,
                    quick, help, commandLine);
        }

        private static int integer(String flag, String v, int min, int max) {
            long n;
            try {
                n = Long.parseLong(v.trim());
            } catch (NumberFormatException ex) {
                throw new BadOptionException(flag, "'" + v + "' is not a whole number", "give a number from " + min + " to " + max);
            }
            if (n < min || n > max) {
                throw new BadOptionException(flag, n + " is outside " + min + ".." + max, "give a number from " + min + " to " + max);
            }
            return (int) n;
        }

        private static long bytesAtMost(String flag, String v, long max) {
            long n = Units.parseBytes(flag, v);
            if (n > max) {
                throw new BadOptionException(flag, Units.bytes(n) + " is above " + Units.bytes(max), "give at most " + Units.shortBytes(max));
            }
            return n;
        }

        private static long[] sizes(String flag, String v) {
            String[] parts = v.split(",");
            List<Long> out = new ArrayList<>();
            for (String p : parts) {
                if (p.isBlank()) {
                    throw new BadOptionException(flag, "empty entry in '" + v + "'", "list sizes separated by commas, e.g. 64,16K,1M");
                }
                out.add(Units.parseBytes(flag, p));
            }
            return out.stream().mapToLong(Long::longValue).distinct().sorted().toArray();
        }

        private static Set<Scenario> scenarios(String flag, String v) {
            Set<Scenario> set = EnumSet.noneOf(Scenario.class);
            for (String p : v.split(",")) {
                String id = p.trim().toLowerCase(Locale.ROOT);
                if (id.equals("all")) {
                    set.addAll(EnumSet.allOf(Scenario.class));
                    continue;
                }
                Scenario found = null;
                for (Scenario s : Scenario.values()) {
                    if (s.id().equals(id)) {
                        found = s;
                    }
                }
                if (found == null) {
                    throw new BadOptionException(flag, "unknown scenario '" + p.trim() + "'",
                            "choose from " + Arrays.stream(Scenario.values()).map(Scenario::id).toList() + " or all");
                }
                set.add(found);
            }
            return set;
        }

        private static <E extends Enum<E>> E choice(String flag, String v, Class<E> type) {
            String want = v.trim().replace('-', '_').toUpperCase(Locale.ROOT);
            for (E e : type.getEnumConstants()) {
                if (e.name().equals(want)) {
                    return e;
                }
            }
            throw new BadOptionException(flag, "'" + v + "' is not one of " + Arrays.stream(type.getEnumConstants())
                    .map(e -> e.name().toLowerCase(Locale.ROOT)).toList(), "pick one of those values");
        }
    }
}

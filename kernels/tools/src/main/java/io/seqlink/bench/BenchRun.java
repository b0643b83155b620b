package io.seqlink.bench;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs the selected scenarios in order, each fenced off: a scenario (or one frame size of it) that
 * throws is recorded as a failure and the rest still run. Progress goes to stderr, one line per
 * measurement, so a long run on a remote GPU shows where it is.
 */
final class BenchRun {

    private final BenchEnvironment env;
    private final BenchOptions options;
    private final Results results;
    private final Optional<Path> comparator;
    private final PrintStream log;
    private final Runnable checkpoint;

    /** {@code checkpoint} runs after every scenario: the reports on disk then survive a crash of the JVM later on. */
    BenchRun(BenchEnvironment env, Results results, Optional<Path> comparator, PrintStream log, Runnable checkpoint) {
        this.env = env;
        this.options = env.options();
        this.results = results;
        this.comparator = comparator;
        this.log = log;
        this.checkpoint = checkpoint;
    }

    /** What every report's header says about where and how the run ran. */
    static void describeHost(Results results, BenchOptions options) {
        results.environment.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        results.environment.put("host", hostName());
        results.environment.put("cpus", Runtime.getRuntime().availableProcessors());
        results.environment.put("java", System.getProperty("java.vendor") + " " + System.getProperty("java.version"));
        results.environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        loadAverage().ifPresent(l -> results.environment.put("load_average_at_start", l));
        results.environment.put("command", "io.seqlink.bench.BenchMain " + String.join(" ", options.commandLine()));
        results.environment.put("options", options.echo());
        results.environment.put("allocation_meter", AllocationMeter.available() ? "ThreadMXBean.getCurrentThreadAllocatedBytes"
                : "unavailable (no jdk.management): alloc columns are '-'");
    }

    /** The 1-minute load average (Linux), so a reader can see whether other work shared the CPUs. */
    static Optional<Double> loadAverage() {
        try {
            String text = java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
            return Optional.of(Double.parseDouble(text.split("\\s+")[0]));
        } catch (Exception ex) {
            return Optional.empty();
        }
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception ex) {
            return "unknown";
        }
    }

    void runAll() {
        results.environment.putAll(env.describe());
        results.environment.put("comparator", env.emulated() ? "not run: the C++ comparator needs a CUDA GPU"
                : comparator.map(Path::toString).orElse("not found (give --comparator PATH)"));
        double pingPong = HostCalibration.pingPongNanos(200_000);
        results.environment.put("host_thread_round_trip_ns", pingPong);
        progress("host threads hand a word back and forth in %.0f ns (spin ping-pong; bare metal: 100-300 ns)", pingPong);
        scenario(Scenario.COPY, this::copy);
        scenario(Scenario.SWEEP, this::sweep);
        scenario(Scenario.COMPARATOR, this::comparatorSweep);
        scenario(Scenario.SCHEMES, this::schemes);
        scenario(Scenario.FANOUT, this::fanOut);
        scenario(Scenario.PIPELINE, () -> attempt("pipeline", () -> {
            List<Results.PipelineRow> rows = new PipelineBench(env).run();
            results.pipeline.addAll(rows);
            rows.forEach(p -> progress("pipeline %s: %.1f us/frame, sync share %s", p.variant(), p.microsPerFrame(),
                    Units.percent(p.syncShare())));
        }));
        scenario(Scenario.HOST, this::hostPath);
    }

    /**
     * The host listener against the hand-written device-to-host copy: the comparator's host rows first (a quiet GPU),
     * then per size the Java naive rows and the host listener's rows, through the launcher (a started runtime of its
     * own, closed at the end) and polled (the harness's runtime), armed rounds on and off.
     */
    private void hostPath() {
        comparatorHost();
        NaiveD2hBench naive = new NaiveD2hBench(env);
        List<HostListenerDelivery> deliveries = new ArrayList<>();
        HostListenerDelivery.Launched launched = null;
        try {
            launched = new HostListenerDelivery.Launched(env.openStartedRuntime());
            deliveries.add(launched);
        } catch (RuntimeException ex) {
            results.fail("host launcher runtime", ex);
        }
        deliveries.add(new HostListenerDelivery.Polled());
        try {
            for (long size : options.sizes()) {
                String label = "host " + Units.bytes(size);
                attempt(label + " naive-d2h", () -> cycleRow(label, naive.cycle(size)));
                attempt(label + " naive-d2h-pipelined", () -> throughputRow(label, naive.pipelined(size)));
                for (HostListenerDelivery d : deliveries) {
                    HostListenerBench bench = new HostListenerBench(env, d);
                    for (boolean armed : new boolean[] {true, false}) {
                        String mode = HostListenerBench.mode(d, armed);
                        attempt(label + " " + mode + " cycle", () -> cycleRow(label, bench.cycle(size, armed)));
                        attempt(label + " " + mode + " pipelined", () -> throughputRow(label, bench.pipelined(size, armed)));
                    }
                }
                checkpoint.run(); // a run cut short keeps the sizes it finished
            }
        } finally {
            if (launched != null) {
                launched.close();
            }
        }
    }

    private void cycleRow(String label, Results.CycleRow row) {
        results.cycles.add(row);
        progress("%s: %s p50 %.2f us, p99 %.2f us, %s B/frame allocated, %d verified, %d corrupt", label, row.mode(),
                row.latency().p50(), row.latency().p99(), Units.fig(row.allocBytesPerFrame()), row.verified(), row.corrupt());
    }

    private void throughputRow(String label, Results.ThroughputRow row) {
        results.throughputs.add(row);
        progress("%s: %s %.3f GB/s, %s B/frame allocated, %d verified, %d corrupt", label, row.mode(), row.gbPerS(),
                Units.fig(row.allocBytesPerFrame()), row.verified(), row.corrupt());
    }

    /** {@code seqlink-cycle-bench --mode host}: the hand-written hand-offs in C++, same sizes, frames, ring and byte cap. */
    private void comparatorHost() {
        if (env.emulated()) {
            results.notes.add("C++ host rows not run: they need a CUDA GPU (this run used the emulated backend); the host "
                    + "listener's ratios are over the Java naive-d2h rows.");
            return;
        }
        if (comparator.isEmpty() && "none".equalsIgnoreCase(options.comparator())) {
            results.notes.add("C++ host rows not run: --comparator none; the host listener's ratios are over the Java naive-d2h rows.");
            return;
        }
        if (comparator.isEmpty()) {
            results.fail("comparator host", new IllegalStateException("seqlink-cycle-bench not found: give --comparator PATH (built "
                    + "by kernels/build-kernels.sh into kernels/tools/target/native, bundled in .gpu/native)"));
            return;
        }
        ComparatorRunner runner = new ComparatorRunner(comparator.get(), options.comparatorTimeoutNanos());
        String sizes = Arrays.stream(options.sizes()).mapToObj(Long::toString).collect(Collectors.joining(","));
        long maxBytes = env.bytesPerSize() == Long.MAX_VALUE ? 0 : env.bytesPerSize();
        attempt("comparator host", () -> {
            List<String> args = new ArrayList<>(List.of("--mode", "host", "--sizes", sizes, "--frames",
                    Integer.toString(options.frames()), "--warmup", Integer.toString(Math.min(options.warmup(), 1000)),
                    "--slots", Integer.toString(options.slots()), "--ring-budget", Long.toString(env.ringBudget()),
                    "--max-bytes", Long.toString(maxBytes)));
            args.addAll(devices());
            absorb(runner.run(args), "comparator host");
        });
    }

    /** Runs a selected scenario, records it as done, and saves the reports so far. */
    private void scenario(Scenario s, Runnable body) {
        if (!options.scenarios().contains(s)) {
            return;
        }
        long t0 = System.nanoTime();
        body.run();
        results.scenariosDone.add(s.id());
        progress("scenario %s done in %.1f s", s.id(), (System.nanoTime() - t0) / 1e9);
        checkpoint.run();
    }

    /** What only the end of the run knows. */
    void finish() {
        results.environment.put("transports", env.transportsUsed());
        loadAverage().ifPresent(l -> results.environment.put("load_average_at_end", l));
    }

    private void copy() {
        CopyBench bench = new CopyBench(env);
        long bytes = env.copyBytes();
        attempt("copy", () -> {
            Results.CopyRow row = bench.bandwidth("producer-to-consumer", env.producer(), env.consumer(), bytes);
            results.copies.add(row);
            progress("copy %d -> %d, %s: %.1f GB/s", row.src(), row.dst(), Units.bytes(bytes), row.gbPerS());
        });
        if (!env.sameDevice()) {
            attempt("copy", () -> results.copies.add(bench.bandwidth("device-local", env.producer(), env.producer(), bytes)));
        }
    }

    private void sweep() {
        ChannelCycleBench cycle = new ChannelCycleBench(env);
        ChannelThroughputBench throughput = new ChannelThroughputBench(env);
        CopyBench copy = new CopyBench(env);
        for (long size : options.sizes()) {
            String label = "sweep " + Units.bytes(size);
            attempt(label + " cycle", () -> {
                Results.CycleRow row = cycle.run(size);
                results.cycles.add(row);
                progress("%s: Java cycle p50 %.2f us, p99 %.2f us, %s B/frame allocated, %d corrupt", label, row.latency().p50(),
                        row.latency().p99(), Units.fig(row.allocBytesPerFrame()), row.corrupt());
            });
            attempt(label + " throughput", () -> {
                Results.ThroughputRow row = throughput.run(size);
                results.throughputs.add(row);
                progress("%s: Java throughput %.3f GB/s, %d corrupt", label, row.gbPerS(), row.corrupt());
            });
            attempt(label + " batched", () -> {
                Results.ThroughputRow row = throughput.runBatched(size);
                results.throughputs.add(row);
                progress("%s: Java batched (no per-frame kernels) %.3f GB/s, %d missed", label, row.gbPerS(), row.corrupt());
            });
            attempt(label + " copy-sync", () -> results.cycles.add(copy.copyThenSynchronize(size)));
        }
    }

    private void comparatorSweep() {
        if (env.emulated()) {
            results.notes.add("C++ comparator not run: it needs a CUDA GPU (this run used the emulated backend).");
            return;
        }
        if (comparator.isEmpty()) {
            results.fail("comparator", new IllegalStateException("seqlink-cycle-bench not found: give --comparator PATH (built by "
                    + "kernels/build-kernels.sh into kernels/target/native, bundled in .gpu/native)"));
            return;
        }
        ComparatorRunner runner = new ComparatorRunner(comparator.get(), options.comparatorTimeoutNanos());
        String sizes = Arrays.stream(options.sizes()).mapToObj(Long::toString).collect(Collectors.joining(","));
        for (String mode : List.of("latency", "throughput")) {
            attempt("comparator " + mode, () -> {
                List<String> args = new ArrayList<>(List.of("--mode", mode, "--sizes", sizes, "--frames",
                        Integer.toString(options.frames()), "--warmup", Integer.toString(Math.min(options.warmup(), 1000)),
                        "--slots", Integer.toString(options.slots())));
                args.addAll(devices());
                absorb(runner.run(args), "comparator " + mode);
            });
        }
    }

    private List<String> devices() {
        return List.of("--producer", Integer.toString(env.producer()), "--consumer", Integer.toString(env.consumer()));
    }

    /** Keeps a comparator run's raw document and rows; a run without a document is a failure. */
    private void absorb(ComparatorRunner.Run run, String scenario) {
        results.comparatorRuns.add(run);
        if (run.report() == null) {
            throw new IllegalStateException(String.join(" ", run.command()) + ": " + run.problem());
        }
        ComparatorReport report = run.report();
        results.schemes.addAll(report.schemes);
        results.cycles.addAll(report.cycles);
        results.throughputs.addAll(report.throughputs);
        if (!report.deviceSummary().isEmpty()) {
            results.environment.put("comparator", run.command().get(0) + " on " + report.deviceSummary());
        }
        if (run.problem() != null) {
            results.failures.add(new Results.Failure(scenario, run.problem()));
        }
        progress("%s: %d result(s) in %.1f s", scenario, report.cycles.size() + report.throughputs.size() + report.schemes.size(),
                run.seconds());
    }

    private void schemes() {
        if (env.emulated()) {
            CpuSchemes cpu = new CpuSchemes(options.schemeThreads(), options.schemePacketBytes());
            for (String name : CpuSchemes.NAMES) {
                attempt("scheme " + name, () -> {
                    Results.SchemeRow row = cpu.run(name, options.schemeDurationNanos(), env.topology());
                    results.schemes.add(row);
                    progress("scheme %s (CPU reference): %.3f GB/s, p99 %.2f us, %.1f control reads/frame", name, row.gbPerS(),
                            row.p99(), row.controlReadsPerRound());
                });
            }
            return;
        }
        if (comparator.isEmpty()) {
            results.fail("schemes", new IllegalStateException("the article's schemes run as GPU kernels of seqlink-cycle-bench, "
                    + "which was not found: give --comparator PATH"));
            return;
        }
        ComparatorRunner runner = new ComparatorRunner(comparator.get(), options.comparatorTimeoutNanos()
                + 4 * options.schemeDurationNanos());
        attempt("schemes", () -> {
            List<String> args = new ArrayList<>(List.of("--mode", "schemes", "--duration-s",
                    Double.toString(options.schemeDurationNanos() / 1e9), "--threads", Integer.toString(options.schemeThreads()),
                    "--packet", Integer.toString(options.schemePacketBytes())));
            args.addAll(devices());
            absorb(runner.run(args), "schemes");
        });
    }

    private void fanOut() {
        FanOutBench bench = new FanOutBench(env);
        for (int k = 1; k <= env.maxConsumers(); k++) {
            int consumers = k;
            attempt("fanout " + k, () -> {
                Results.FanOutRow row = bench.run(consumers, options.fanoutBytes());
                results.fanOut.add(row);
                progress("fan-out %d (%s): cycle p50 %.2f us, %.3f GB/s per consumer", consumers, row.placement(), row.latency().p50(),
                        row.gbPerS());
            });
        }
    }

    /** Runs one measurement; a failure is recorded, logged, and does not stop the run. */
    private void attempt(String scenario, Runnable body) {
        try {
            body.run();
        } catch (StackOverflowError | RuntimeException | LinkageError | OutOfMemoryError ex) {
            results.fail(scenario, ex);
            log.println("[seqlink-bench] " + scenario + " FAILED: " + ex);
            ex.printStackTrace(log);
        } catch (AssertionError ex) {
            results.fail(scenario, ex);
            log.println("[seqlink-bench] " + scenario + " FAILED: " + ex);
        }
    }

    private void progress(String format, Object... args) {
        log.println("[seqlink-bench] " + String.format(java.util.Locale.ROOT, format, args));
    }
}

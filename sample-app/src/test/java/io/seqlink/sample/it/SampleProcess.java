package io.seqlink.sample.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged sample jar ({@code target/seqlink-sample-app.jar}) run as a separate process, the way a
 * user runs it: as a service (on a random port, read back from its log) or as a command to completion.
 * Output goes to a log file under {@code target/it-logs}, kept for a failure's post-mortem.
 */
final class SampleProcess implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Duration STARTUP = Duration.ofSeconds(120);

    private final Process process;
    private final Path log;
    private final int port;

    private SampleProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts the service with {@code args} on a free port and waits until it serves. */
    static SampleProcess start(String name, String... args) throws Exception {
        List<String> command = command(args);
        command.add("--server.port=0");
        Path log = logFile(name);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (true) {
            String out = Files.readString(log, StandardCharsets.UTF_8);
            Matcher m = STARTED.matcher(out);
            if (m.find()) {
                return new SampleProcess(p, log, Integer.parseInt(m.group(1)));
            }
            if (!p.isAlive()) {
                throw new AssertionError("the sample exited with status " + p.exitValue() + " before serving:\n" + tail(out));
            }
            if (System.nanoTime() - deadline > 0) {
                p.destroyForcibly();
                throw new AssertionError("the sample did not serve within " + STARTUP + ":\n" + tail(out));
            }
            Thread.sleep(100);
        }
    }

    /** Runs the jar with {@code args} to completion; its exit status and everything it printed. */
    static Result run(String name, Duration timeout, String... args) throws Exception {
        Path log = logFile(name);
        Process p = new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("'" + String.join(" ", args) + "' did not finish within " + timeout + ":\n"
                    + tail(Files.readString(log, StandardCharsets.UTF_8)));
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    int port() {
        return port;
    }

    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Asks the service to stop (SIGTERM, as a container runtime would) and returns its exit status. */
    int stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the sample did not stop within " + timeout + " of SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Arguments that keep a run on the emulated backend: none where there is no CUDA driver (the default
     * {@code seqlink.backend=auto} falls back by itself, which is what these tests want to see), an explicit
     * override where a driver is installed.
     */
    static List<String> emulatedArgs() {
        return cudaDriverPresent() ? List.of("--seqlink.backend=emulated") : List.of();
    }

    static boolean cudaDriverPresent() {
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/nvidia/lib64")) {
            if (Files.exists(Path.of(dir, "libcuda.so.1"))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> command(String... args) {
        Path jar = Path.of(System.getProperty("sample.jar", "target/seqlink-sample-app.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError(jar + " does not exist: the integration tests run after 'package' (mvn verify)");
        }
        String java = System.getProperty("java.command",
                ProcessHandle.current().info().command().orElse("java"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-jar", jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static Path logFile(String name) throws IOException {
        Path dir = Path.of(System.getProperty("sample.logs", "target/it-logs"));
        Files.createDirectories(dir);
        return dir.resolve(name + ".log");
    }

    static String tail(String out) {
        String[] lines = out.split("\n");
        int from = Math.max(0, lines.length - 60);
        return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    /** A finished command. */
    record Result(int status, String output) {
    }
}

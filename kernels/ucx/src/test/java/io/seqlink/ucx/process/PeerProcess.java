package io.seqlink.ucx.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link BridgePeer} in a JVM of its own: started with this test JVM's class path, read line by
 * line (its output also goes to {@code target/ucx-peers/NAME.log}), killed, stopped or resumed by
 * signal. Every wait polls with a deadline.
 */
final class PeerProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private volatile Map<String, String> status = Map.of();

    private PeerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                    var out = Files.newBufferedWriter(log)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    if (line.startsWith("STATUS ") || line.startsWith("CLOSED ")) {
                        status = parse(line);
                    }
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "peer-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static PeerProcess start(String name, String... args) throws IOException {
        return start(name, List.of(), BridgePeer.class, args);
    }

    /** A process running {@code main} with {@code jvmOptions} (system properties, say) and {@code args}. */
    static PeerProcess start(String name, List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        Path dir = Path.of(System.getProperty("seqlink-build.ucx-reports", "target/ucx-bench")).getParent().resolve("ucx-peers");
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:MaxDirectMemorySize=512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("UCX_TLS", "tcp");
        return new PeerProcess(name, pb.start(), dir.resolve(name + ".log"));
    }

    /** Waits for a line starting with {@code prefix}; returns it. */
    String awaitLine(String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            synchronized (lines) {
                for (String l : lines) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
            }
            if (!process.isAlive()) {
                break;
            }
            sleep(10);
        }
        throw new AssertionError(name + ": no line '" + prefix + "' within " + timeout + "; output:\n" + tail());
    }

    /** Waits for a line containing {@code text}; returns it. */
    String awaitLineContaining(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<String> found = linesContaining(text);
            if (!found.isEmpty()) {
                return found.get(0);
            }
            sleep(10);
        }
        throw new AssertionError(name + ": no line containing '" + text + "' within " + timeout + "; output:\n" + tail());
    }

    /** The lines so far that contain {@code text}. */
    List<String> linesContaining(String text) {
        synchronized (lines) {
            return lines.stream().filter(l -> l.contains(text)).toList();
        }
    }

    /** Waits until the latest status satisfies {@code condition}; returns it. */
    Map<String, String> awaitStatus(Predicate<Map<String, String>> condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, String> s = status;
            if (condition.test(s)) {
                return s;
            }
            sleep(10);
        }
        throw new AssertionError(name + ": " + what + " not reached within " + timeout + "; last status " + status + "\n" + tail());
    }

    Map<String, String> status() {
        return status;
    }

    long number(String key) {
        return Long.parseLong(status.getOrDefault(key, "-1"));
    }

    long pid() {
        return process.pid();
    }

    /** Writes a command line to the peer's stdin. */
    void command(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** "stop" on stdin: the peer closes its bridge and exits; returns its final status. */
    Map<String, String> stop(Duration timeout) throws IOException, InterruptedException {
        command("stop");
        awaitLine("CLOSED", timeout);
        process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return status;
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    void signal(String sig) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
    }

    private String tail() {
        synchronized (lines) {
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
    }

    private static Map<String, String> parse(String line) {
        Map<String, String> m = new HashMap<>();
        for (String token : line.split(" ")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                m.put(token.substring(0, eq), token.substring(eq + 1).replace(",", "").replace("]", ""));
            }
        }
        return m;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Kills the process if it still runs (resuming it first, should it be stopped). Keeps an interrupt's flag. */
    @Override
    public void close() {
        if (process.isAlive()) {
            signal0("CONT");
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void signal0(String sig) {
        try {
            signal(sig);
        } catch (IOException | InterruptedException ignored) {
            // best effort on the way out
        }
    }
}

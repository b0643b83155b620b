package io.seqlink.testing;

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
 * A main class in a JVM of its own, started with this test JVM's class path, read line by line (its output also goes
 * to {@code NAME.log} in a folder under {@code target}); its latest {@code STATUS key=value ...} or {@code CLOSED
 * key=value ...} line parsed; commands written to its stdin; killed ({@code kill -9}), stopped or resumed by signal.
 * Every wait polls with a deadline and ends early on success; a wait that fails says what it waited for and shows the
 * child's last lines. The process tests of the kernels and of the cross-host bridge use it (the kernels' test jar
 * carries this package).
 */
public final class ChildJvm implements AutoCloseable {

    private final String name;
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private volatile Map<String, String> status = Map.of();

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                    var out = Files.newBufferedWriter(log)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
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
        }, "child-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args} in a small JVM (serial GC, 256 MiB heap), its log in {@code target/child-jvms}. */
    public static ChildJvm start(String name, Class<?> mainClass, String... args) throws IOException {
        return start(name, Path.of("target", "child-jvms"), Map.of(), mainClass, args);
    }

    /** Starts {@code mainClass} with {@code args} and {@code env} added to the environment, its log in {@code logDir}. */
    public static ChildJvm start(String name, Path logDir, Map<String, String> env, Class<?> mainClass, String... args)
            throws IOException {
        return start(name, logDir, env, List.of(), mainClass, args);
    }

    /** The same with {@code jvmOptions} (system properties, say) before the class path. */
    public static ChildJvm start(String name, Path logDir, Map<String, String> env, List<String> jvmOptions, Class<?> mainClass,
            String... args) throws IOException {
        Files.createDirectories(logDir);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:MaxDirectMemorySize=512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        return new ChildJvm(name, pb.start(), logDir.resolve(name + ".log"));
    }

    /** Waits for a line starting with {@code prefix}; returns it. */
    public String awaitLine(String prefix, Duration timeout) {
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
    public String awaitLineContaining(String text, Duration timeout) {
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
    public List<String> linesContaining(String text) {
        synchronized (lines) {
            return lines.stream().filter(l -> l.contains(text)).toList();
        }
    }

    /** "stop" on stdin: the child ends and prints a CLOSED line; returns its last status (the CLOSED line's, if it has values). */
    public Map<String, String> stop(Duration timeout) throws IOException, InterruptedException {
        command("stop");
        awaitLine("CLOSED", timeout);
        process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return status;
    }

    /** Waits until the latest status satisfies {@code condition}; returns it. */
    public Map<String, String> awaitStatus(Predicate<Map<String, String>> condition, Duration timeout, String what) {
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

    public Map<String, String> status() {
        return status;
    }

    /** A number of the latest status, -1 when absent. */
    public long number(String key) {
        return number(status, key);
    }

    public static long number(Map<String, String> status, String key) {
        return Long.parseLong(status.getOrDefault(key, "-1"));
    }

    /** A {@code key=value} of {@code line} (a status or any line in that form), or null. */
    public static String field(String line, String key) {
        return parse(line).get(key);
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Writes a command line to the child's stdin. */
    public void command(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** {@code kill -9}: waits until the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Sends {@code sig} ({@code STOP}, {@code CONT}, ...). */
    public void signal(String sig) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits up to {@code timeout} for the process to exit; its exit code, or -1 when it still runs. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    public String tail() {
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
            try {
                new ProcessBuilder("kill", "-CONT", Long.toString(process.pid())).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
                kill();
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

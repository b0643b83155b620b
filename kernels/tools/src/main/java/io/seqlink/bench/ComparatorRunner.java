package io.seqlink.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Runs {@code seqlink-cycle-bench}, the C++ comparator, as a subprocess of the same harness run, so
 * Java and C++ are measured on the same machine minutes apart. Its stderr (progress) goes to ours; its
 * stdout is one JSON document. Exit 1 still carries a document (a frame was corrupt); exit 2 does not.
 */
final class ComparatorRunner {

    /** Where the binary is looked for when {@code --comparator} is not given, after {@code $SEQLINK_CYCLE_BENCH}. */
    static final List<String> CANDIDATES = List.of(".gpu/native/seqlink-cycle-bench", "kernels/target/native/seqlink-cycle-bench",
            "target/native/seqlink-cycle-bench", "../kernels/target/native/seqlink-cycle-bench");

    private final Path binary;
    private final long timeoutNanos;

    ComparatorRunner(Path binary, long timeoutNanos) {
        this.binary = binary;
        this.timeoutNanos = timeoutNanos;
    }

    /** The binary named by the option ({@code none} disables), the environment, or the first candidate that exists. */
    static Optional<Path> locate(@Nullable String option) {
        if (option != null) {
            if (option.equalsIgnoreCase("none")) {
                return Optional.empty();
            }
            Path p = Path.of(option);
            if (!Files.isExecutable(p)) {
                throw new BadOptionException("--comparator", p + " is not an executable file",
                        "give the path of seqlink-cycle-bench (built by kernels/build-kernels.sh), or 'none'");
            }
            return Optional.of(p);
        }
        String env = System.getenv("SEQLINK_CYCLE_BENCH");
        if (env != null && !env.isBlank() && Files.isExecutable(Path.of(env))) {
            return Optional.of(Path.of(env));
        }
        for (String c : CANDIDATES) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    Path binary() {
        return binary;
    }

    /**
     * One run's outcome: the parsed report (when there was a document), the exit code and what went
     * wrong; in the JSON report as {@code command, exit_code, seconds, problem, document} (the raw document).
     */
    @JsonPropertyOrder({"command", "exit_code", "seconds", "problem", "document"})
    record Run(List<String> command, int exitCode, double seconds, @JsonIgnore @Nullable ComparatorReport report,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String problem) {

        /** The comparator's document as it printed it, or nothing when there was none. */
        @JsonProperty("document")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable JsonNode document() {
            return report == null ? null : report.document;
        }
    }

    /** Runs the comparator with {@code args}; never throws for a failing comparator, only reports it. */
    Run run(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(args);
        long t0 = System.nanoTime();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException ex) {
            return new Run(command, -1, 0, null, "could not start: " + ex.getMessage());
        }
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> copy(process.getInputStream(), stdout), "bench-comparator-stdout");
        reader.setDaemon(true);
        reader.start();
        boolean finished;
        try {
            finished = process.waitFor(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return new Run(command, -1, 0, null, "interrupted");
        }
        if (!finished) {
            process.destroyForcibly();
            return new Run(command, -1, (System.nanoTime() - t0) / 1e9, null,
                    "did not finish within " + timeoutNanos / 1_000_000_000 + " s (raise --comparator-timeout)");
        }
        ChannelThroughputBench.join(reader);
        double seconds = (System.nanoTime() - t0) / 1e9;
        int exit = process.exitValue();
        String out = stdout.toString(StandardCharsets.UTF_8).trim();
        if (out.isEmpty()) {
            return new Run(command, exit, seconds, null, "no JSON on stdout (exit " + exit + "; its stderr above says why)");
        }
        try {
            ComparatorReport report = ComparatorReport.parse(out);
            String problem = exit == 0 ? null : "exit " + exit + ": a frame was corrupt or a check failed";
            return new Run(command, exit, seconds, report, problem);
        } catch (IllegalArgumentException | JacksonException ex) {
            return new Run(command, exit, seconds, null, "unreadable output: " + ex.getMessage());
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            in.transferTo(out);
        } catch (IOException ex) {
            // the process died; its exit code tells the rest
        }
    }
}

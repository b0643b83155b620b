package io.seqlink.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The benchmark harness's entry point, Spring-free: {@code java -cp <jars> io.seqlink.bench.BenchMain
 * [options]} on a GPU host without Maven, or {@link #run(String[])} from the sample's {@code bench}
 * command. Runs the scenarios ({@code --help} lists them), prints a Markdown report on stdout and
 * writes {@value #MARKDOWN}, {@value #JSON} and {@value #PLOT} into {@code --out}.
 *
 * <p>Exit status: 0 every scenario ran and every checked frame was intact; 1 a scenario failed or a
 * frame was corrupt (every other scenario still ran, and the report lists what failed); 2 bad options.
 */
public final class BenchMain {

    public static final String MARKDOWN = "bench-results.md";
    public static final String JSON = "bench-results.json";
    public static final String PLOT = "bench-plot.svg";

    private BenchMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the harness with {@code args}; returns the exit status (0, 1 or 2, see the class comment). */
    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        BenchOptions options;
        Optional<Path> comparator;
        try {
            options = BenchOptions.parse(args);
            if (options.help()) {
                out.print(BenchOptions.usage());
                return 0;
            }
            comparator = ComparatorRunner.locate(options.comparator());
        } catch (BadOptionException ex) {
            err.println("seqlink-bench: " + ex.getMessage());
            err.println("seqlink-bench: run with --help for every option");
            return 2;
        }
        try {
            Files.createDirectories(options.out());
        } catch (IOException ex) {
            err.println("seqlink-bench: --out: cannot create directory " + options.out() + " (" + ex.getMessage()
                    + "); give a writable directory");
            return 2;
        }
        Results results = new Results();
        BenchRun.describeHost(results, options);
        BenchEnvironment env;
        try {
            env = BenchEnvironment.open(options);
        } catch (BadOptionException ex) {
            err.println("seqlink-bench: " + ex.getMessage());
            return 2;
        } catch (RuntimeException | LinkageError ex) {
            results.fail("startup", ex);
            err.println("seqlink-bench: the backend did not open: " + ex);
            return write(options, results, out, err);
        }
        try (env) {
            BenchRun run = new BenchRun(env, results, comparator, err, () -> save(options, results, err));
            try {
                run.runAll();
            } finally {
                run.finish();
            }
        } catch (RuntimeException ex) {
            results.fail("shutdown", ex);
        }
        return write(options, results, out, err);
    }

    /** Writes the three files; returns the Markdown, or {@code null} when writing failed (said on {@code err}). */
    private static @Nullable String save(BenchOptions options, Results results, PrintStream err) {
        List<Targets.Verdict> targets = Targets.judge(results);
        String markdown = MarkdownReport.render(results, targets);
        String title = "seqlink: " + results.environment.getOrDefault("backend_description", "?") + " - "
                + results.environment.getOrDefault("topology", "");
        try {
            // each file is written whole to a temporary name and renamed, so a crash never leaves half a report
            replace(options.out().resolve(MARKDOWN), markdown);
            replace(options.out().resolve(JSON), JsonReport.write(results, targets));
            String plot = plot(results, title, err);
            if (plot != null) {
                replace(options.out().resolve(PLOT), plot);
            }
            return markdown;
        } catch (IOException ex) {
            err.println("seqlink-bench: writing the results into " + options.out() + " failed: " + ex.getMessage());
            return null;
        }
    }

    /**
     * The SVG plot, or {@code null} when this JVM cannot draw text (no font or no AWT natives on a bare
     * GPU host): said on {@code err}, and the Markdown and JSON reports are written all the same.
     */
    private static @Nullable String plot(Results results, String title, PrintStream err) {
        try {
            return BenchPlot.render(results, title);
        } catch (RuntimeException | Error ex) {
            if (ex instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            // without fonts the JDK throws NullPointerException, UnsatisfiedLinkError, AWTError or a bare Error
            err.println("seqlink-bench: " + PLOT + " not drawn (" + Results.firstLine(ex.toString()) + "): the plot needs a font; "
                    + "install fontconfig and a font (e.g. fonts-dejavu-core). The Markdown and JSON reports are complete.");
            return null;
        }
    }

    private static void replace(Path target, String text) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes the three files and prints the Markdown; returns the exit status the results call for. */
    private static int write(BenchOptions options, Results results, PrintStream out, PrintStream err) {
        String markdown = save(options, results, err);
        if (markdown == null) {
            out.print(MarkdownReport.render(results, Targets.judge(results)));
            return 1;
        }
        out.print(markdown);
        out.flush();
        err.println("[seqlink-bench] wrote " + options.out().resolve(MARKDOWN) + ", " + options.out().resolve(JSON) + ", "
                + options.out().resolve(PLOT));
        boolean clean = results.failures.isEmpty() && results.corruptFrames() == 0;
        return clean ? 0 : 1;
    }
}

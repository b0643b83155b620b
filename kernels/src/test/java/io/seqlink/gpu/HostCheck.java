package io.seqlink.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code seqlink-host-check} (built by build-kernels.sh from the CUDA headers, runs without a GPU)
 * and returns its lines. Looked up at the system property {@code seqlink-build.host-check}, then
 * {@code target/native/} and {@code kernels/target/native/}; tests are skipped, saying so, without it.
 */
final class HostCheck {

    private static List<String> lines;

    private HostCheck() {
    }

    static synchronized List<String> lines() throws IOException, InterruptedException {
        if (lines != null) {
            return lines;
        }
        Path bin = find();
        assumeTrue(bin != null, "seqlink-host-check was not built (no nvcc when the kernels module was built); "
                + "set -Dseqlink-build.host-check=/path/to/seqlink-host-check to run the header contract tests");
        Process p = new ProcessBuilder(bin.toString()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(bin + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        lines = new ArrayList<>(List.of(new String(out, StandardCharsets.UTF_8).split("\n")));
        return lines;
    }

    private static Path find() {
        String prop = System.getProperty("seqlink-build.host-check");
        List<Path> candidates = new ArrayList<>();
        if (prop != null && !prop.isBlank()) {
            candidates.add(Path.of(prop));
        }
        candidates.add(Path.of("target/native/seqlink-host-check"));
        candidates.add(Path.of("kernels/target/native/seqlink-host-check"));
        for (Path c : candidates) {
            if (Files.isExecutable(c)) {
                return c;
            }
        }
        return null;
    }

    /** The value of {@code "<kind> <name> <value>"}, or fails naming the missing line. */
    static long value(List<String> lines, String kind, String name) {
        for (String l : lines) {
            String[] f = l.trim().split(" ");
            if (f.length == 3 && f[0].equals(kind) && f[1].equals(name)) {
                return Long.parseUnsignedLong(f[2]);
            }
        }
        throw new AssertionError("seqlink-host-check printed no '" + kind + " " + name + "' line");
    }
}

package io.seqlink.soak;

import java.io.IOException;
import java.nio.file.Files;

/**
 * The soak as a program, for long runs outside the test suite: 30 minutes on the emulated backend,
 * at least 5 on a GPU. Prints progress and a summary; writes the JSON report with {@code --json};
 * exits 1 if anything was lost, duplicated or corrupted.
 *
 * <pre>
 *   java -cp seqlink-kernels.jar:slf4j-api.jar io.seqlink.soak.SoakMain --duration 30m --json soak.json
 *   java -cp ...:jcuda.jar:jcuda-natives.jar io.seqlink.soak.SoakMain --backend cuda --duration 5m --consumers 1
 * </pre>
 */
public final class SoakMain {

    private SoakMain() {
    }

    public static void main(String[] args) throws IOException {
        SoakOptions options;
        try {
            options = SoakOptions.parse(args);
        } catch (IllegalArgumentException ex) {
            System.err.println(ex.getMessage());
            System.exit(2);
            return;
        }
        SoakReport report = new SoakRun(options, System.out::println).run();
        System.out.print(report.summary());
        if (options.json() != null) {
            if (options.json().toAbsolutePath().getParent() != null) {
                Files.createDirectories(options.json().toAbsolutePath().getParent());
            }
            Files.writeString(options.json(), report.toJson());
            System.out.println("JSON report: " + options.json().toAbsolutePath());
        }
        System.exit(report.passed() ? 0 : 1);
    }
}

package io.seqlink.sample;

import io.seqlink.sample.cli.BenchCommand;
import io.seqlink.sample.cli.VerifyCommand;
import java.io.PrintStream;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The seqlink sample: the source article's GPU pipeline as a Spring Boot service.
 *
 * <pre>
 *   java -jar seqlink-sample-app.jar [--spring.profiles.active=gpu2] [--property=value ...]   the service
 *   java -jar seqlink-sample-app.jar verify [--property=value ...]   topology report; exit 2 if a required link fails
 *   java -jar seqlink-sample-app.jar bench [benchmark arguments]      the benchmark harness (--help lists them)
 * </pre>
 */
@SpringBootApplication
public class SampleApplication {

    /** Exit status for a command line that names no known mode. */
    public static final int USAGE = 64;

    public static void main(String[] args) {
        String mode = args.length > 0 && !args[0].startsWith("-") ? args[0] : null;
        String[] rest = mode == null ? args : Arrays.copyOfRange(args, 1, args.length);
        if (mode == null) {
            SpringApplication.run(SampleApplication.class, args);
            return;
        }
        switch (mode) {
            case "verify" -> System.exit(VerifyCommand.run(rest, System.out));
            case "bench" -> System.exit(BenchCommand.run(rest));
            case "help" -> usage(System.out);
            default -> {
                System.err.println("Unknown mode '" + mode + "'.");
                usage(System.err);
                System.exit(USAGE);
            }
        }
    }

    static void usage(PrintStream out) {
        out.println("""
                Usage: java -jar seqlink-sample-app.jar [MODE] [--property=value ...]

                Modes:
                  (none)    run the pipeline service: status page on /, API on /api, Actuator on /actuator
                  verify    verify the links the configured channels need, print the topology as a table,
                            exit 0 when every required link holds, 2 when one does not, 1 when startup fails
                  bench     run the benchmark harness (io.seqlink.bench.BenchMain); 'bench --help' lists its options
                  help      print this text

                Profiles: (default) 3 emulated devices when there is no GPU; gpu1, gpu2, gpu8 for 1, 2 or 8 GPUs,
                e.g. --spring.profiles.active=gpu8""");
    }
}

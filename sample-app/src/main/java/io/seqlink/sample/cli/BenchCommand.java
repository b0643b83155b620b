package io.seqlink.sample.cli;

import io.seqlink.bench.BenchMain;

/**
 * {@code java -jar seqlink-sample-app.jar bench [args]}: the benchmark harness of seqlink-tools (kernels/tools),
 * without Spring and without a web server. The arguments go to it unchanged; its exit status is ours.
 */
public final class BenchCommand {

    private BenchCommand() {
    }

    public static int run(String[] args) {
        return BenchMain.run(args);
    }
}

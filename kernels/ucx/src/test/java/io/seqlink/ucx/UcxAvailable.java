package io.seqlink.ucx;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Skips a test, saying what to install, where UCX cannot be loaded (the build installs it when it runs as root). */
final class UcxAvailable {

    private UcxAvailable() {
    }

    static void assumeUcx() {
        UcxInfo info = UcxEnvironment.probe();
        assumeTrue(info.available(), () -> "UCX test skipped: " + info.problem());
    }
}

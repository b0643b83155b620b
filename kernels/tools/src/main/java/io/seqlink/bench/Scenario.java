package io.seqlink.bench;

import java.util.Locale;

/** The parts of a harness run, selectable with {@code --scenarios}. */
enum Scenario {
    /** The source article's four schemes (C++ comparator kernels on a GPU; a Java CPU reference on the emulated backend). */
    SCHEMES("article's four schemes: mutex, flag, lock-free counter, counter + double buffer"),
    /** The Java channel path per frame size: cycle latency, pipelined throughput, copy + synchronise. */
    SWEEP("Java channel cycle and pipelined throughput per frame size"),
    /** The C++ comparator's cycle, throughput, memcpy-peer and wait-value modes per frame size. */
    COMPARATOR("C++ comparator: cycle, throughput, cuMemcpyPeerAsync, cuStreamWaitValue64"),
    /** One producer, 1..N consumers. */
    FANOUT("fan-out: 1 to N consumers"),
    /** The sample-like pipeline with and without the channel's synchronisation. */
    PIPELINE("share of pipeline time spent in synchronisation"),
    /** Large device copies: the bandwidth that large frames are measured against. */
    COPY("copy bandwidth");

    private final String description;

    Scenario(String description) {
        this.description = description;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    String description() {
        return description;
    }
}

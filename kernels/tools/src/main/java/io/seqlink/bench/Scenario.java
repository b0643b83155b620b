package io.seqlink.bench;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

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
    COPY("copy bandwidth"),
    /**
     * Host listeners against the hand-written device-to-host copy (not in the default set: {@code --scenarios host}):
     * the C++ and Java naive rows, the channel's host listener polled and through the launcher, armed rounds on and off.
     */
    HOST("host listeners against naive-d2h (fill + cudaMemcpyAsync D2H + synchronize), polled and through the launcher", false);

    private final String description;
    private final boolean standard;

    Scenario(String description) {
        this(description, true);
    }

    Scenario(String description, boolean standard) {
        this.description = description;
        this.standard = standard;
    }

    /** The scenarios a run without {@code --scenarios} runs: all but {@link #HOST}. */
    static Set<Scenario> standard() {
        Set<Scenario> set = EnumSet.noneOf(Scenario.class);
        for (Scenario s : values()) {
            if (s.standard) {
                set.add(s);
            }
        }
        return set;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    String description() {
        return description;
    }
}

package io.seqlink.spring.observation;

import java.util.concurrent.ThreadLocalRandom;

/** Decides, per frame, whether a publish is observed. Immutable; any thread; allocates nothing. */
final class Sampler {

    private final double probability;

    private Sampler(double probability) {
        this.probability = probability;
    }

    static Sampler of(double probability) {
        return new Sampler(probability);
    }

    boolean sample() {
        return probability >= 1.0 || (probability > 0 && ThreadLocalRandom.current().nextDouble() < probability);
    }
}

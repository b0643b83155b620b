package io.seqlink.idle;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

/** The spin after work: within the window nothing backs off; after it (or with no work yet) the strategy behind does. */
class SpinAfterWorkTest {

    /** Counts the back-offs it is asked for. */
    static final class Counting implements IdleStrategy {
        int idles;
        int resets;

        @Override
        public void idle(int workCount) {
            idles++;
        }

        @Override
        public void idle() {
            idles++;
        }

        @Override
        public void reset() {
            resets++;
        }
    }

    @Test
    void withinTheWindowAfterWorkItSpinsAndNeverBacksOff() {
        Counting then = new Counting();
        IdleStrategy s = new SpinAfterWork(60_000_000_000L, then); // a minute: no scheduler delay leaves it
        s.idle(3);
        for (int i = 0; i < 1_000; i++) {
            s.idle(0);
        }
        assertThat(then.idles).isZero();
        assertThat(then.resets).as("work resets the back-off behind").isEqualTo(1);
    }

    @Test
    void withoutWorkOrAfterTheWindowTheStrategyBehindBacksOff() {
        Counting then = new Counting();
        IdleStrategy s = new SpinAfterWork(1, then); // 1 ns: over before the next call
        s.idle(0);
        assertThat(then.idles).as("no work yet").isEqualTo(1);
        s.idle(1);
        long t = System.nanoTime();
        while (System.nanoTime() - t < 1_000) {
            Thread.onSpinWait();
        }
        s.idle(0);
        assertThat(then.idles).isEqualTo(2);
    }

    @Test
    void theDefaultStrategiesSpinAfterWork() {
        assertThat(IdleStrategyKind.BACKOFF.create()).isInstanceOf(SpinAfterWork.class);
        assertThat(IdleStrategyKind.LOW_LATENCY.create()).isInstanceOf(SpinAfterWork.class);
    }
}

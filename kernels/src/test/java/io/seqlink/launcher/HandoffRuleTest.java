package io.seqlink.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When the watchdog hands a listener over to a thread of its own: a listener that waits or runs holds
 * the device loop up; a loop thread the operating system merely descheduled does not (a new thread would
 * wait for a CPU just the same), and handing it over cost the 1 -> 1 benchmark half its throughput.
 */
class HandoffRuleTest {

    private static final HandoffRule RULE = new HandoffRule(TimeUnit.MILLISECONDS.toNanos(2));

    @Test
    void aCallThatWaitsIsHandedOverAfterTheHandoffTime() {
        assertThat(RULE.handOver(ms(2), ms(0), ms(2), true)).isTrue();
        assertThat(RULE.handOver(ms(1), ms(0), ms(1), true)).isFalse();
    }

    @Test
    void aCallThatRunsOnItsCpuIsHandedOverAfterTenTimesThat() {
        assertThat(RULE.handOver(ms(20), ms(20), ms(20), false)).isTrue();
        assertThat(RULE.handOver(ms(19), ms(19), ms(19), false)).isFalse();
    }

    @Test
    void aLoopThreadThatWasOnlyDescheduledIsNotHandedOver() {
        // the benchmark's case: one 16 KiB copy "lasted" 21 ms of wall time, 0.1 ms of it on a CPU
        assertThat(RULE.handOver(ms(21), micros(100), ms(21), false)).isFalse();
        assertThat(RULE.handOver(ms(49), micros(100), ms(49), false)).isFalse();
    }

    @Test
    void anyRoundIsHandedOverAfterTwentyFiveTimesThat() {
        // a call blocked in native code is runnable and burns no CPU: the round's wall time still bounds it
        assertThat(RULE.handOver(ms(50), micros(100), ms(50), false)).isTrue();
        assertThat(RULE.handOver(micros(10), micros(10), ms(50), false)).isTrue();
    }

    private static long ms(long n) {
        return TimeUnit.MILLISECONDS.toNanos(n);
    }

    private static long micros(long n) {
        return TimeUnit.MICROSECONDS.toNanos(n);
    }
}

package io.seqlink.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology.StreamMode;
import io.seqlink.channel.Delivery;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The randomized soak in CI: one producer, three consumers driven by the launcher, listeners that
 * stall at random, a chaos thread pausing consumers and stalling their streams; 250,000 checksummed
 * frames (each checked by all three consumers) per delivery mode and stream mode. The same engine
 * runs for 30 minutes as {@link SoakMain}.
 */
class ChannelSoakTest {

    /**
     * 250,000 checksummed frames per case (about 3,900 laps of the 64-slot ring), with the stall chance per frame four times
     * {@link SoakOptions#defaults()}'s so each listener stalls as often as in 10^6 frames (about 500 times); the
     * 10^6-frame run across processes is TwoProcessChannelTest's, and SoakMain runs this engine for 30 minutes.
     */
    private static final long FRAMES = 250_000;
    private static final double STALL_PROBABILITY = 0.002;

    @ParameterizedTest(name = "{0} delivery, {1} streams, host listeners named: {2}")
    @CsvSource({"LOSSLESS, INLINE, true", "LOSSLESS, THREADED, true", "LOSSLESS, THREADED, false", "LATEST, INLINE, true",
            "LATEST, THREADED, true"})
    void nothingLostDuplicatedOrCorrupted(Delivery delivery, StreamMode mode, boolean hostRing) {
        // latest: paced, so consumers deliver a good share and lapping still happens under the stalls
        long maxRate = delivery == Delivery.LATEST ? 250_000 : 0;
        SoakOptions options = new SoakOptions(BackendSelection.EMULATED, Duration.ZERO, FRAMES, 3, 64, 256, delivery, hostRing, STALL_PROBABILITY,
                mode, maxRate, 42, Duration.ofSeconds(5), null);
        SoakReport report = new SoakRun(options, line -> { }).run();
        System.out.print(report.summary());

        assertThat(report.published()).isEqualTo(FRAMES);
        assertThat(report.drained()).as("every consumer caught up").isTrue();
        assertThat(report.consumers()).hasSize(3).allSatisfy(c -> {
            assertThat(c.corrupt()).as("corrupt frames on consumer %d", c.device()).isZero();
            assertThat(c.duplicates()).as("duplicated frames on consumer %d", c.device()).isZero();
            assertThat(c.lost()).as("lost frames on consumer %d", c.device()).isZero();
            if (delivery == Delivery.LOSSLESS) {
                assertThat(c.delivered()).isEqualTo(FRAMES);
                assertThat(c.missed()).isZero();
            } else {
                assertThat(c.missed()).as("missed equals the gaps on consumer %d", c.device()).isEqualTo(c.gaps());
                assertThat(c.delivered() + c.missed()).isEqualTo(FRAMES);
                assertThat(c.delivered()).as("consumer %d delivered frames", c.device()).isPositive();
            }
        });
        assertThat(report.chaos()).as("stalls were injected").isPositive();
        assertThat(report.passed()).isTrue();
    }
}

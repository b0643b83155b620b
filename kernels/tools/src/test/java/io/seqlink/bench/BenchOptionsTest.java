package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.BackendSelection;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void parsesSizesDurationsAndChoices() {
        BenchOptions o = BenchOptions.parse(new String[] {"--backend", "emulated", "--sizes", "16K,64,1MiB,64", "--duration=500ms",
            "--pipeline-read-mode", "copy", "--transport", "peer-atomic", "--scenarios", "sweep,copy"});

        assertThat(o.backend()).isEqualTo(BackendSelection.EMULATED);
        assertThat(o.sizes()).containsExactly(64, 16384, 1 << 20);
        assertThat(o.schemeDurationNanos()).isEqualTo(500_000_000L);
        assertThat(o.pipelineReadMode()).isEqualTo(ReadMode.COPY);
        assertThat(o.transport()).isEqualTo(Transport.PEER_ATOMIC);
        assertThat(o.scenarios()).containsExactlyInAnyOrder(Scenario.SWEEP, Scenario.COPY);
    }

    @Test
    void defaultsFollowTheArticle() {
        BenchOptions o = BenchOptions.parse(new String[0]);

        assertThat(o.schemeDurationNanos()).isEqualTo(30_000_000_000L);
        assertThat(o.schemeThreads()).isEqualTo(256);
        assertThat(o.schemePacketBytes()).isEqualTo(64);
        assertThat(o.sizes()).startsWith(64).endsWith(16 << 20);
        assertThat(o.scenarios()).containsExactlyInAnyOrderElementsOf(Scenario.standard()).doesNotContain(Scenario.HOST)
                .hasSize(Scenario.values().length - 1);
        assertThat(BenchOptions.parse(new String[] {"--scenarios", "all"}).scenarios()).containsExactlyInAnyOrder(Scenario.values());
    }

    @Test
    void quickShortensEverythingButLetsLaterFlagsWin() {
        BenchOptions o = BenchOptions.parse(new String[] {"--frames", "777", "--quick"});

        assertThat(o.quick()).isTrue();
        assertThat(o.frames()).isEqualTo(777);
        assertThat(o.schemeDurationNanos()).isEqualTo(1_000_000_000L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--duration;forever;--duration",
        "--duration;-5s;--duration",
        "--sizes;64,,1K;--sizes",
        "--sizes;2G;--sizes",
        "--sizes;12Q;--sizes",
        "--frames;0;--frames",
        "--frames;many;--frames",
        "--threads;100;--threads",
        "--packet;12;--packet",
        "--backend;tpu;--backend",
        "--scenarios;sweep,warp;--scenarios",
        "--pipeline-pixels;1001;--pipeline-pixels",
        "--transport;carrier-pigeon;--transport",
        "--bogus;1;--bogus"})
    void badValuesNameTheFlagAndTheFix(String flag, String value, String named) {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {flag, value}))
                .isInstanceOf(BadOptionException.class)
                .hasMessageStartingWith(named + ":")
                .satisfies(e -> assertThat(((BadOptionException) e).fix()).isNotBlank());
    }

    @Test
    void aFlagWithoutItsValueSaysSo() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--out"})).isInstanceOf(BadOptionException.class)
                .hasMessageContaining("--out: needs a value");
    }

    @Test
    void badOptionsExitWithStatusTwoAndAMessage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = BenchMain.run(new String[] {"--sizes", "0"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--sizes").contains("--help");
    }

    @Test
    void aComparatorPathThatIsNotThereIsABadOption() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = BenchMain.run(new String[] {"--comparator", "/nonexistent/seqlink-cycle-bench"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--comparator").contains("not an executable");
    }

    @Test
    void helpListsEveryFlagAndExitsZero() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = BenchMain.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        assertThat(rc).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--duration", "--sizes", "--comparator", "--out", "exit status");
    }
}

package io.seqlink.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology.StreamMode;
import io.seqlink.channel.Delivery;
import io.seqlink.report.ReportJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The soak runner's command line: what the 30-minute and the GPU runs will be started with. */
class SoakOptionsTest {

    @Test
    void everyOptionIsRead() {
        SoakOptions o = SoakOptions.parse("--backend", "cuda", "--duration", "5m", "--frames", "2_000_000", "--consumers", "2",
                "--slots", "128", "--slot-bytes", "16384", "--delivery", "latest", "--ring", "device", "--stall-probability", "0.01",
                "--stream-mode", "inline", "--max-rate", "100000", "--seed", "7", "--sample-interval", "2s", "--json", "out/soak.json");
        assertThat(o.backend()).isEqualTo(BackendSelection.CUDA);
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.frames()).isEqualTo(2_000_000);
        assertThat(o.consumers()).isEqualTo(2);
        assertThat(o.slots()).isEqualTo(128);
        assertThat(o.slotBytes()).isEqualTo(16384);
        assertThat(o.delivery()).isEqualTo(Delivery.LATEST);
        assertThat(o.hostRing()).isFalse();
        assertThat(o.stallProbability()).isEqualTo(0.01);
        assertThat(o.streamMode()).isEqualTo(StreamMode.INLINE);
        assertThat(o.maxRate()).isEqualTo(100_000);
        assertThat(o.seed()).isEqualTo(7);
        assertThat(o.effectiveSampleInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.json()).isEqualTo(Path.of("out/soak.json"));
    }

    @Test
    void aDurationAloneRunsUntilItEnds() {
        SoakOptions o = SoakOptions.parse("--duration", "30m");
        assertThat(o.frames()).isZero();
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(30));
        assertThat(o.effectiveSampleInterval()).isEqualTo(Duration.ofSeconds(6)); // a 300th of the run
        assertThat(SoakOptions.parse("--duration", "PT90S").duration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(SoakOptions.parse("--duration", "500ms").duration()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void defaultsAreAShortLosslessEmulatedSoak() {
        SoakOptions o = SoakOptions.parse();
        assertThat(o.backend()).isEqualTo(BackendSelection.EMULATED);
        assertThat(o.frames()).isEqualTo(1_000_000);
        assertThat(o.consumers()).isEqualTo(3);
        assertThat(o.delivery()).isEqualTo(Delivery.LOSSLESS);
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        assertThatThrownBy(() -> SoakOptions.parse("--frames")).hasMessageContaining("--frames needs a value");
        assertThatThrownBy(() -> SoakOptions.parse("--color", "red")).hasMessageContaining("unknown option --color");
        assertThatThrownBy(() -> SoakOptions.parse("--consumers", "0")).hasMessageContaining("--consumers must be between 1 and 63");
        assertThatThrownBy(() -> SoakOptions.parse("--stall-probability", "2")).hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> SoakOptions.parse("--frames", "0")).hasMessageContaining("give --frames N or --duration D");
        assertThatThrownBy(() -> SoakOptions.parse("--duration", "5x")).hasMessageContaining("use e.g. 90s, 30m");
        assertThatThrownBy(() -> SoakOptions.parse("--help")).hasMessageContaining("usage: SoakMain");
    }

    @Test
    void theReportSerialisesToJsonWithTheCountsThatMatter() {
        SoakOptions o = new SoakOptions(BackendSelection.EMULATED, Duration.ZERO, 10_000, 1, 16, 64, Delivery.LOSSLESS, true, 0,
                StreamMode.INLINE, 0, 3, Duration.ofSeconds(1), null);
        SoakReport report = new SoakRun(o, line -> { }).run();
        assertThat(report.passed()).isTrue();
        JsonNode json = ReportJson.read(report.toJson());
        assertThat(json.path("published").asLong()).isEqualTo(10000);
        assertThat(json.path("lost").asLong()).isZero();
        assertThat(json.path("duplicated").asLong()).isZero();
        assertThat(json.path("corrupt").asLong()).isZero();
        assertThat(json.path("passed").asBoolean()).isTrue();
        assertThat(json.path("framesPerSecond").isNumber()).isTrue();
        JsonNode sample = json.path("samples").path(0);
        assertThat(List.of("heapAfterGc", "directBytes", "deviceUsed")).allSatisfy(k -> assertThat(sample.has(k)).as(k).isTrue());
        assertThat(report.summary()).contains("PASSED", "delivered 10,000");
    }
}

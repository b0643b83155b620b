package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class ComparatorReportTest {

    @Test
    void readsEveryDocumentedMode() {
        ComparatorReport r = ComparatorReport.parse(ComparatorFixture.DOCUMENT);

        assertThat(r.ok).isTrue();
        assertThat(r.deviceSummary()).isEqualTo("NVIDIA H200 (driver 13.0, runtime 12.6)");
        assertThat(r.cycles).extracting(Results.CycleRow::mode).containsExactly("cycle", "wait-value", "memcpy-peer");
        Results.CycleRow cycle = r.cycles.get(0);
        assertThat(cycle.impl()).isEqualTo(Results.CPP);
        assertThat(cycle.frameBytes()).isEqualTo(16384);
        assertThat(cycle.latency().p50()).isEqualTo(33.51);
        assertThat(cycle.latency().p99()).isEqualTo(43.56);
        assertThat(cycle.latency().p999()).isEqualTo(60.125);
        assertThat(cycle.latency().count()).isEqualTo(2000);
        assertThat(cycle.verified()).isEqualTo(2000);

        assertThat(r.throughputs).extracting(Results.ThroughputRow::mode).containsExactly("throughput", "memcpy-peer");
        assertThat(r.throughputs.get(0).gbPerS()).isEqualTo(1.2);
        assertThat(r.throughputs.get(0).frames()).isEqualTo(8000);
        assertThat(r.throughputs.get(1).gbPerS()).isEqualTo(4.0);
    }

    @Test
    void separatesControlReadsFromPacketWordsInTheSchemes() {
        ComparatorReport r = ComparatorReport.parse(ComparatorFixture.DOCUMENT);

        Results.SchemeRow counter = r.schemes.get(0);
        assertThat(counter.scheme()).isEqualTo("lock-free-counter");
        assertThat(counter.source()).isEqualTo("comparator");
        assertThat(counter.rounds()).isEqualTo(234602);
        assertThat(counter.remoteReadsPerRound()).isEqualTo(2060.0);
        // 256 threads x 64 B / 8 = 2048 packet words per round are data, the rest are polls of the counter
        assertThat(counter.controlReadsPerRound()).isCloseTo(12.0, within(1e-9));
        assertThat(counter.p99()).isEqualTo(4.608);
        assertThat(counter.topology()).contains("two streams of one GPU");
    }

    @Test
    void toleratesPrintfNanAndZeroRounds() {
        ComparatorReport r = ComparatorReport.parse(ComparatorFixture.DOCUMENT);

        Results.SchemeRow mutex = r.schemes.get(1);
        assertThat(mutex.gbPerS()).isNaN();
        assertThat(mutex.rounds()).isZero();
        assertThat(mutex.controlReadsPerRound()).isNaN();
        assertThat(mutex.timeouts()).isEqualTo(2);
    }

    @Test
    void readsTheOutputOfARealRun() {
        ComparatorReport r = ComparatorReport.parse(ComparatorFixture.H200_EXCERPT);

        assertThat(r.deviceSummary()).isEqualTo("NVIDIA H200 (driver 13.0, runtime 13.0)");
        assertThat(r.cycles).extracting(Results.CycleRow::mode).containsExactly("cycle", "wait-value", "memcpy-peer");
        assertThat(r.cycles.get(0).latency().p50()).isEqualTo(33.196);
        assertThat(r.throughputs.get(0).gbPerS()).isEqualTo(1.156);
        Results.SchemeRow db = r.schemes.get(0);
        assertThat(db.scheme()).isEqualTo("counter-double-buffer");
        assertThat(db.controlReadsPerRound()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void readsVersionTwoRowsByKindWithTheChannelsRowsUnderTheHarnessNames() {
        ComparatorReport r = ComparatorReport.parse(ComparatorFixture.V2_EXCERPT);

        assertThat(r.cycles).extracting(Results.CycleRow::mode).containsExactly("cycle", "floor");
        assertThat(r.cycles.get(0).latency().p50()).isEqualTo(31.532);
        assertThat(r.cycles.get(1).latency().p99()).isEqualTo(24.408);
        assertThat(r.throughputs).extracting(Results.ThroughputRow::mode).containsExactly("throughput");
        assertThat(r.throughputs.get(0).gbPerS()).isEqualTo(1.464);
    }

    @Test
    void rejectsWhatIsNotAComparatorDocument() {
        assertThatThrownBy(() -> ComparatorReport.parse("{\"tool\":\"something-else\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seqlink-cycle-bench");
        assertThatThrownBy(() -> ComparatorReport.parse("{\"tool\":\"seqlink-cycle-bench\", \"results\": [}"))
                .isInstanceOf(JacksonException.class).hasMessageContaining("column");
    }
}

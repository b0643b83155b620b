package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.report.Percentiles;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

    private static Percentiles p99(double v) {
        return new Percentiles(100, v / 2, v / 2, v, v, v / 2, v / 4, v);
    }

    @Test
    void judgesEachTargetOnFiguresOfTheSameRunAndSaysByHowMuch() {
        Results r = new Results();
        r.cycles.add(new Results.CycleRow(Results.JAVA, "cycle", 16384, p99(12), 10, 0, 0, 1));
        r.cycles.add(new Results.CycleRow(Results.CPP, "cycle", 16384, p99(8), 10, 0, Double.NaN, Double.NaN));
        r.throughputs.add(new Results.ThroughputRow(Results.JAVA, "throughput", 16384, 100, 1, 30, 10, 0, 0, 1));
        r.throughputs.add(new Results.ThroughputRow(Results.JAVA, "throughput", 1 << 20, 100, 1, 50, 10, 0, 0, 1));
        r.copies.add(new Results.CopyRow("producer-to-consumer", 0, 1, 1 << 28, 8, 100));
        r.pipeline.add(new Results.PipelineRow("channel", "", 10, 1, 100, 0.02, 2, 0.01, 1, 0, 10));

        List<Targets.Verdict> v = Targets.judge(r);

        assertThat(v).filteredOn(x -> x.target().startsWith("p99")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("PASS")).satisfies(x -> assertThat(x.margin()).contains("20%"));
        assertThat(v).filteredOn(x -> x.target().startsWith("throughput, 16 KiB")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("PASS"));
        assertThat(v).filteredOn(x -> x.target().contains("copy bandwidth, 1 MiB")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("MISS"))
                .satisfies(x -> assertThat(x.margin()).isEqualTo("short by 30.0 points"));
        assertThat(v).filteredOn(x -> x.target().startsWith("Java / C++ cycle p50")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("MISS"))
                .satisfies(x -> assertThat(x.measured()).startsWith("1.50x"));
        assertThat(v).filteredOn(x -> x.target().startsWith("synchronisation share of")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("MISS"))
                .satisfies(x -> assertThat(x.margin()).startsWith("over by 1.0 points"));
        assertThat(v).filteredOn(x -> x.target().startsWith("synchronisation share over the paced")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("PASS"));
    }

    @Test
    void judgesTheHostListenerAgainstTheCppNaiveRowOfTheSameRun() {
        Results r = new Results();
        for (long size : new long[] {16384, 1 << 20}) {
            r.cycles.add(new Results.CycleRow(Results.CPP, "naive-d2h", size, p99(20), 10, 0, Double.NaN, Double.NaN));
            r.cycles.add(new Results.CycleRow(Results.JAVA, "naive-d2h", size, p99(21), 10, 0, 0, Double.NaN));
            r.cycles.add(new Results.CycleRow(Results.JAVA, "host-launcher", size, p99(size == 16384 ? 22 : 40), 10, 0, 0, 1));
            r.cycles.add(new Results.CycleRow(Results.JAVA, "host-launcher-unarmed", size, p99(30), 10, 0, 0, 1));
            r.throughputs.add(new Results.ThroughputRow(Results.CPP, "naive-d2h-pipelined", size, 100, 1, 2.0, 10, 0, Double.NaN,
                    Double.NaN));
            r.throughputs.add(new Results.ThroughputRow(Results.JAVA, "host-launcher", size, 100, 1, 1.5, 10, 0, 0.25, 1));
        }

        List<Targets.Verdict> v = Targets.judge(r);

        assertThat(v).filteredOn(x -> x.target().startsWith("host listener (launcher, defaults) cycle p50 / C++ naive-d2h, 16 KiB"))
                .singleElement().satisfies(x -> assertThat(x.status()).isEqualTo("PASS"))
                .satisfies(x -> assertThat(x.measured()).startsWith("1.10x"));
        assertThat(v).filteredOn(x -> x.target().startsWith("host listener (launcher, defaults) cycle p99 / C++ naive-d2h, 1 MiB"))
                .singleElement().satisfies(x -> assertThat(x.status()).isEqualTo("MISS"))
                .satisfies(x -> assertThat(x.margin()).isEqualTo("over by 1.67x the limit"));
        assertThat(v).filteredOn(x -> x.target().startsWith("host listener (launcher, defaults) pipelined / C++ naive-d2h-pipelined"))
                .hasSize(2).allSatisfy(x -> assertThat(x.status()).isEqualTo("MISS"))
                .allSatisfy(x -> assertThat(x.margin()).isEqualTo("short by 25% of the reference"));
        assertThat(v).filteredOn(x -> x.target().startsWith("armed rounds / none, host listener (launcher) cycle p50")).hasSize(2)
                .extracting(Targets.Verdict::status).containsExactly("PASS", "MISS");
        assertThat(v).filteredOn(x -> x.target().startsWith("Java / C++ naive-d2h cycle p50")).hasSize(2)
                .allSatisfy(x -> assertThat(x.status()).isEqualTo("PASS"));
        assertThat(v).filteredOn(x -> x.target().startsWith("heap bytes per frame")).singleElement()
                .satisfies(x -> assertThat(x.status()).isEqualTo("PASS"))
                .satisfies(x -> assertThat(x.measured()).contains("host-launcher pipelined"));
    }

    @Test
    void saysWhatToRunWhenAFigureIsMissing() {
        List<Targets.Verdict> v = Targets.judge(new Results());

        assertThat(v).allSatisfy(x -> assertThat(x.status()).isEqualTo("NOT MEASURED"));
        assertThat(v).allSatisfy(x -> assertThat(x.margin()).isNotBlank());
    }
}

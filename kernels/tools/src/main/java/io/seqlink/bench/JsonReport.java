package io.seqlink.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.seqlink.report.ReportJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run as one JSON document ({@code "tool":"seqlink-bench"}): the environment, every row of every
 * scenario with full percentiles, the targets, the failures, and the comparator's raw documents.
 * Units are in the member names: {@code _us}, {@code _gb_per_s} (10^9 B/s), {@code _bytes}. Written
 * by Jackson from {@link Document} and the row records of {@link Results}, with snake_case names.
 */
final class JsonReport {

    static final int VERSION = 1;

    private JsonReport() {
    }

    /** The document; the lists are copies, so a scenario thread that reports late cannot change it while it is written. */
    record Document(String tool, int version, Map<String, Object> environment, List<String> scenariosDone,
            List<Targets.Verdict> targets, List<Results.SchemeRow> schemes, List<Results.CycleRow> cycles,
            List<Results.ThroughputRow> throughput, @JsonProperty("fanout") List<Results.FanOutRow> fanOut,
            List<Results.PipelineRow> pipeline, List<Results.CopyRow> copy, List<Results.Failure> failures, List<String> notes,
            List<ComparatorRunner.Run> comparatorRuns) {
    }

    static Document build(Results r, List<Targets.Verdict> targets) {
        // the environment keeps its insertion order (when, where, what ran, then what was found)
        return new Document("seqlink-bench", VERSION, Collections.unmodifiableMap(new LinkedHashMap<>(r.environment)),
                List.copyOf(r.scenariosDone), List.copyOf(targets), List.copyOf(r.schemes), List.copyOf(r.cycles),
                List.copyOf(r.throughputs), List.copyOf(r.fanOut), List.copyOf(r.pipeline), List.copyOf(r.copies),
                List.copyOf(r.failures), List.copyOf(r.notes), List.copyOf(r.comparatorRuns));
    }

    static String write(Results r, List<Targets.Verdict> targets) {
        return ReportJson.writeSnakeCase(build(r, targets));
    }
}

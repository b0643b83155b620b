package io.seqlink.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The tools' JSON: what the removed hand-written writer and parser did, now through Jackson. */
class ReportJsonTest {

    record Row(String frameBytes, double gbPerS, Percentiles latencyUs) {
    }

    @Test
    void writesWhatItReads() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "quote \" backslash \\ newline \n tab \t");
        m.put("int", 42L);
        m.put("double", 12.5);
        m.put("list", List.of(1L, 2L, 3L));
        m.put("nested", List.of(Map.of("a", true), Map.of("b", false)));
        m.put("nothing", null);

        JsonNode back = ReportJson.read(ReportJson.write(m));

        assertThat(back.path("name").asString()).isEqualTo(m.get("name"));
        assertThat(back.path("int").asLong()).isEqualTo(42L);
        assertThat(back.path("double").asDouble()).isEqualTo(12.5);
        assertThat(back.path("list").valueStream().map(JsonNode::asLong)).containsExactly(1L, 2L, 3L);
        assertThat(back.path("nested").path(1).path("b").asBoolean(true)).isFalse();
        assertThat(back.path("nothing").isNull()).isTrue();
        assertThat(List.copyOf(back.propertyNames())).containsExactly("name", "int", "double", "list", "nested", "nothing");
    }

    @Test
    void writesNonFiniteNumbersAsNull() {
        JsonNode back = ReportJson.read(ReportJson.write(List.of(Double.NaN, Double.POSITIVE_INFINITY, 1.5)));
        assertThat(back.path(0).isNull()).isTrue();
        assertThat(back.path(1).isNull()).isTrue();
        assertThat(back.path(2).asDouble()).isEqualTo(1.5);
        // primitive components too, and snake_case names in declaration order
        JsonNode row = ReportJson.read(ReportJson.writeSnakeCase(new Row("64", Double.NaN, Percentiles.EMPTY)));
        assertThat(List.copyOf(row.propertyNames())).containsExactly("frame_bytes", "gb_per_s", "latency_us");
        assertThat(row.path("gb_per_s").isNull()).isTrue();
        assertThat(row.path("latency_us").path("samples").asLong()).isZero();
        assertThat(row.path("latency_us").path("p99").isNull()).isTrue();
    }

    @Test
    void isStrict() {
        assertThatThrownBy(() -> ReportJson.read("[nan]")).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> ReportJson.read("[1,]")).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> ReportJson.read("{\"a\":1} x")).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> ReportJson.read("[01]")).isInstanceOf(JacksonException.class);
        // a figure the C++ tools could not measure is null (nlohmann/json writes NaN so): read as NaN
        assertThat(ReportJson.number(ReportJson.read("{\"gb_per_s\":null}"), "gb_per_s")).isNaN();
    }

    @Test
    void aParseErrorNamesLineAndColumn() {
        assertThatThrownBy(() -> ReportJson.read("{\"a\":\n [1,,2]}")).isInstanceOf(JacksonException.class)
                .hasMessageContaining("line: 2");
    }
}

package io.seqlink.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesWhatItReads() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "quote \" backslash \\ newline \n tab \t");
        m.put("int", 42L);
        m.put("double", 12.5);
        m.put("list", List.of(1L, 2L, 3L));
        m.put("nested", List.of(Map.of("a", true), Map.of("b", false)));
        m.put("nothing", null);

        Object back = Json.parse(Json.write(m));

        assertThat(back).isEqualTo(m);
    }

    @Test
    void writesNonFiniteNumbersAsNull() {
        assertThat(Json.write(List.of(Double.NaN, Double.POSITIVE_INFINITY)).trim()).isEqualTo("[null, null]");
    }

    @Test
    void isStrictUnlessAskedToTolerateNan() {
        assertThatThrownBy(() -> Json.parse("[nan]")).isInstanceOf(Json.ParseException.class);
        assertThatThrownBy(() -> Json.parse("[1,]")).isInstanceOf(Json.ParseException.class);
        assertThatThrownBy(() -> Json.parse("{\"a\":1} x")).isInstanceOf(Json.ParseException.class);
        assertThatThrownBy(() -> Json.parse("[01]")).isInstanceOf(Json.ParseException.class);
        assertThat((List<?>) Json.parse("[nan, -nan, inf, -inf]", true)).hasSize(4);
        assertThat(((List<?>) Json.parse("[nan]", true)).get(0)).isEqualTo(Double.NaN);
    }
}

package io.seqlink.report;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * The tools' reports as JSON, through Jackson: records (and maps) in, indented text out, members in
 * declaration order, non-finite doubles (a figure that was not measured) as {@code null} since JSON has
 * no NaN. The mappers are immutable and safe from any thread.
 */
public final class ReportJson {

    /** Declared names: the soak report's style. */
    private static final JsonMapper DECLARED = builder().build();
    /** snake_case names: the benchmark reports' style, the same as the C++ comparator's. */
    private static final JsonMapper SNAKE_CASE = builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

    private ReportJson() {
    }

    /** {@code value} as indented JSON with its members' declared names, ending in a newline. */
    public static String write(Object value) {
        return DECLARED.writeValueAsString(value) + "\n";
    }

    /** {@code value} as indented JSON with snake_case member names, ending in a newline. */
    public static String writeSnakeCase(Object value) {
        return SNAKE_CASE.writeValueAsString(value) + "\n";
    }

    /** {@code value} as one line of JSON with snake_case member names: a progress line. */
    public static String writeSnakeCaseLine(Object value) {
        return SNAKE_CASE.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    }

    /**
     * Reads strict JSON (what Jackson or the C++ tools' nlohmann/json wrote: a figure that was not measured
     * is {@code null}); throws {@link JacksonException} naming the line and column of the problem.
     */
    public static JsonNode read(String json) {
        return DECLARED.readTree(json);
    }

    /** A member as a double: NaN when absent, null or not a number. */
    public static double number(JsonNode node, String member) {
        JsonNode v = node.path(member);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    /** A member as a long, or {@code fallback} when absent or not a number. */
    public static long integer(JsonNode node, String member, long fallback) {
        JsonNode v = node.path(member);
        return v.isNumber() ? v.asLong() : fallback;
    }

    /** A member as text, or {@code fallback} when absent or null. */
    public static String text(JsonNode node, String member, String fallback) {
        JsonNode v = node.path(member);
        return v.isMissingNode() || v.isNull() ? fallback : v.asString();
    }

    private static JsonMapper.Builder builder() {
        SimpleModule nonFinite = new SimpleModule("seqlink-non-finite-as-null");
        nonFinite.addSerializer(Double.class, new NonFiniteAsNull());
        nonFinite.addSerializer(Double.TYPE, new NonFiniteAsNull());
        // reading: a parse error names the line and column (off by default in Jackson 3)
        return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY).addModule(nonFinite);
    }

    /** Writes a double as a number, or {@code null} when it is NaN or infinite. */
    private static final class NonFiniteAsNull extends StdSerializer<Double> {

        NonFiniteAsNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializationContext context) {
            if (Double.isFinite(value)) {
                gen.writeNumber(value.doubleValue());
            } else {
                gen.writeNull();
            }
        }
    }
}

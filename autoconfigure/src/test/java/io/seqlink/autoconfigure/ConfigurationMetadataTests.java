package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.ClassPathResource;

/**
 * The configuration metadata the processors generate (and the hand-written additions) exist and
 * describe every property of {@link SeqlinkProperties}, with its default and, for enums, its values.
 */
class ConfigurationMetadataTests {

    @Test
    void metadataFilesExist() {
        assertThat(new ClassPathResource("META-INF/spring-configuration-metadata.json").exists()).isTrue();
        assertThat(new ClassPathResource("META-INF/additional-spring-configuration-metadata.json").exists()).isTrue();
        assertThat(new ClassPathResource("META-INF/spring-autoconfigure-metadata.properties").exists()).isTrue();
        assertThat(new ClassPathResource("META-INF/seqlink-channel-metadata.json").exists()).isTrue();
    }

    @Test
    void everyPropertyIsDescribedWithItsDefault() throws IOException {
        Map<String, Map<String, Object>> metadata = properties("META-INF/spring-configuration-metadata.json");
        Map<String, Leaf> expected = new LinkedHashMap<>();
        walk("seqlink", SeqlinkProperties.class, expected);
        assertThat(expected).containsKeys("seqlink.enabled", "seqlink.channels", "seqlink.verify.max-atomic-latency",
                "seqlink.listener.retry.max-attempts", "seqlink.emulated.links");
        for (Leaf leaf : expected.values()) {
            assertDescribed(metadata, leaf);
        }
        List<String> stale = metadata.keySet().stream().filter(n -> n.startsWith("seqlink.") && !expected.containsKey(n)).toList();
        assertThat(stale).as("metadata for properties that do not exist").isEmpty();
    }

    @Test
    void everyChannelPropertyIsDescribedWithItsDefault() throws IOException {
        Map<String, Map<String, Object>> metadata = properties("META-INF/seqlink-channel-metadata.json");
        Map<String, Leaf> expected = new LinkedHashMap<>();
        walk("seqlink.channels.<name>", SeqlinkProperties.Channel.class, expected);
        assertThat(expected).hasSize(SeqlinkProperties.Channel.class.getRecordComponents().length - 1
                + SeqlinkProperties.Share.class.getRecordComponents().length);
        walk("seqlink.attach.<name>", SeqlinkProperties.Attach.class, expected);
        walk("seqlink.observation.channels.<name>", SeqlinkProperties.ObservedChannel.class, expected);
        assertThat(expected).containsKeys("seqlink.channels.<name>.share.secret-file", "seqlink.attach.<name>.secret-file",
                "seqlink.observation.channels.<name>.sampling-probability");
        for (Leaf leaf : expected.values()) {
            assertDescribed(metadata, leaf);
        }
        assertThat(metadata.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    }

    @Test
    void healthIndicatorSwitchIsDescribed() throws IOException {
        Map<String, Map<String, Object>> metadata = properties("META-INF/spring-configuration-metadata.json");
        assertThat(metadata.get("management.health.seqlink.enabled")).containsEntry("type", "java.lang.Boolean")
                .containsEntry("defaultValue", true).containsKey("description");
        assertThat(metadata.get("management.endpoint.seqlink.access")).containsEntry("defaultValue", "read_only");
    }

    @Test
    void everyEnumPropertyHasAValueHintForEveryConstant() throws IOException {
        Map<String, List<String>> hints = hints("META-INF/spring-configuration-metadata.json");
        hints.putAll(hints("META-INF/seqlink-channel-metadata.json"));
        Map<String, Leaf> expected = new LinkedHashMap<>();
        walk("seqlink", SeqlinkProperties.class, expected);
        walk("seqlink.channels.<name>", SeqlinkProperties.Channel.class, expected);
        int checked = 0;
        for (Leaf leaf : expected.values()) {
            Class<?> enumType = leaf.enumType();
            if (enumType == null) {
                continue;
            }
            String hintName = leaf.mapValue() ? leaf.name() + ".values" : leaf.name();
            List<String> constants = Arrays.stream(enumType.getEnumConstants())
                    .map(e -> ((Enum<?>) e).name().toLowerCase(Locale.ROOT).replace('_', '-')).toList();
            assertThat(hints).as("value hints of %s", hintName).containsKey(hintName);
            assertThat(hints.get(hintName)).as("value hints of %s", hintName).containsExactlyInAnyOrderElementsOf(constants);
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(10);
    }

    @Test
    void autoconfigureMetadataListsEveryAutoConfiguration() throws IOException {
        Properties props = new Properties();
        try (InputStream in = new ClassPathResource("META-INF/spring-autoconfigure-metadata.properties").getInputStream()) {
            props.load(in);
        }
        for (String name : AutoConfigurationClassesTests.imports()) {
            assertThat(props).containsKey(name);
        }
        assertThat(props.getProperty("io.seqlink.autoconfigure.metrics.SeqlinkMetricsAutoConfiguration.ConditionalOnClass"))
                .isEqualTo("io.micrometer.core.instrument.MeterRegistry");
    }

    // ---- the expected properties, from the records ---------------------------------------------

    record Leaf(String name, Type type, String defaultValue, boolean mapValue) {
        Class<?> enumType() {
            Type t = type;
            if (t instanceof ParameterizedType p && p.getRawType() == Map.class) {
                t = p.getActualTypeArguments()[1];
            }
            return t instanceof Class<?> c && c.isEnum() ? c : null;
        }
    }

    static void walk(String prefix, Class<?> record, Map<String, Leaf> out) {
        Constructor<?> canonical = canonical(record);
        RecordComponent[] components = record.getRecordComponents();
        Parameter[] parameters = canonical.getParameters();
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            String name = prefix + "." + kebab(c.getName());
            Class<?> type = c.getType();
            if (type.isRecord() && type.getEnclosingClass() == SeqlinkProperties.class) {
                walk(name, type, out);
                continue;
            }
            DefaultValue dv = parameters[i].getAnnotation(DefaultValue.class);
            String def = dv == null || dv.value().length == 0 ? null : dv.value()[0];
            boolean mapOfEnums = c.getGenericType() instanceof ParameterizedType p && p.getRawType() == Map.class
                    && p.getActualTypeArguments()[1] instanceof Class<?> v && v.isEnum();
            out.put(name, new Leaf(name, c.getGenericType(), def, mapOfEnums));
        }
    }

    private static Constructor<?> canonical(Class<?> record) {
        Class<?>[] types = Arrays.stream(record.getRecordComponents()).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            return record.getDeclaredConstructor(types);
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static void assertDescribed(Map<String, Map<String, Object>> metadata, Leaf leaf) {
        assertThat(metadata).as("metadata of %s", leaf.name()).containsKey(leaf.name());
        Map<String, Object> p = metadata.get(leaf.name());
        assertThat((String) p.get("description")).as("description of %s", leaf.name()).isNotBlank().endsWith(".");
        if (leaf.defaultValue() != null) {
            assertThat(String.valueOf(p.get("defaultValue")).toLowerCase(Locale.ROOT))
                    .as("default of %s", leaf.name())
                    .isIn(leaf.defaultValue().toLowerCase(Locale.ROOT), trimNumber(leaf.defaultValue()));
        }
    }

    private static String trimNumber(String v) {
        return v.endsWith(".0") ? v.substring(0, v.length() - 2) : v;
    }

    private static Map<String, Map<String, Object>> properties(String resource) throws IOException {
        List<Map<String, Object>> list = JsonPath.read(read(resource), "$.properties");
        return list.stream().collect(Collectors.toMap(m -> (String) m.get("name"), m -> m, (a, b) -> a, LinkedHashMap::new));
    }

    private static Map<String, List<String>> hints(String resource) throws IOException {
        List<Map<String, Object>> list = JsonPath.read(read(resource), "$.hints");
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map<String, Object> h : list) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> values = (List<Map<String, Object>>) h.get("values");
            List<String> names = new ArrayList<>();
            for (Map<String, Object> v : values) {
                names.add(String.valueOf(v.get("value")));
                assertThat((String) v.get("description")).as("description of hint %s of %s", v.get("value"), h.get("name"))
                        .isNotBlank();
            }
            out.put((String) h.get("name"), names);
        }
        return out;
    }

    /**
     * This module's copy of {@code resource}: the configuration processor also writes one for the
     * tests' own records (UnknownPropertiesTests' {@code seqlink.widgets}) into test-classes, which
     * comes first on the test class path and would hide this module's.
     */
    private static String read(String resource) throws IOException {
        java.util.Enumeration<java.net.URL> urls = ConfigurationMetadataTests.class.getClassLoader().getResources(resource);
        while (urls.hasMoreElements()) {
            java.net.URL url = urls.nextElement();
            if (!url.getPath().contains("/test-classes/")) {
                try (InputStream in = url.openStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError(resource + " of this module is not on the class path");
    }
}

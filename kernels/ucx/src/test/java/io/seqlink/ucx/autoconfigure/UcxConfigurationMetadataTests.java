package io.seqlink.ucx.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;

/**
 * The metadata docs/configuration.md is generated from describes every {@code seqlink.ucx} key: Boot's
 * (from {@link UcxBridgeProperties}' javadoc) the records it sees, {@code seqlink-ucx-metadata.json}
 * the map values it describes only as maps.
 */
class UcxConfigurationMetadataTests {

    @Test
    void everyPropertyBootSeesHasASentenceOfDescription() throws IOException {
        Map<String, String> described = descriptions("META-INF/spring-configuration-metadata.json");
        for (RecordComponent c : UcxBridgeProperties.class.getRecordComponents()) {
            if (c.getType() != UcxBridgeProperties.Link.class) {
                assertSentence(described, "seqlink.ucx." + kebab(c.getName()));
            }
        }
        for (RecordComponent c : UcxBridgeProperties.Link.class.getRecordComponents()) {
            assertSentence(described, "seqlink.ucx.link." + kebab(c.getName()));
        }
    }

    @Test
    void everyKeyOfOneBridgeIsDescribed() throws IOException {
        Map<String, String> described = descriptions("META-INF/seqlink-ucx-metadata.json");
        List<String> expected = new java.util.ArrayList<>();
        for (RecordComponent c : UcxBridgeProperties.Sender.class.getRecordComponents()) {
            expected.add("seqlink.ucx.senders.<name>." + kebab(c.getName()));
        }
        for (RecordComponent c : UcxBridgeProperties.Receiver.class.getRecordComponents()) {
            expected.add("seqlink.ucx.receivers.<name>." + kebab(c.getName()));
        }
        assertThat(described.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        expected.forEach(name -> assertSentence(described, name));
    }

    private static void assertSentence(Map<String, String> described, String name) {
        String d = described.get(name);
        assertThat(d).as(name + " is described").isNotBlank();
        assertThat(Character.isUpperCase(d.charAt(0)) && d.endsWith(".")).as(name + ": a sentence, not '" + d + "'").isTrue();
        assertThat(d).as(name + ": plain text").doesNotContain("{@");
    }

    private static Map<String, String> descriptions(String resource) throws IOException {
        try (InputStream in = new ClassPathResource(resource, UcxBridgeProperties.class.getClassLoader()).getInputStream()) {
            List<Map<String, Object>> props = JsonPath.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).read("$.properties");
            return props.stream().filter(p -> ((String) p.get("name")).startsWith("seqlink.ucx."))
                    .collect(Collectors.toMap(p -> (String) p.get("name"), p -> String.valueOf(p.get("description"))));
        }
    }

    private static String kebab(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}

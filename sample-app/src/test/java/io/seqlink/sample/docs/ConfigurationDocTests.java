package io.seqlink.sample.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.FileSystemResource;

/**
 * {@code docs/configuration.md} is generated from the configuration metadata and must match it: the build
 * fails when a property is added, removed or re-described without regenerating the file. With
 * {@code -Dseqlink-build.docs-update=true} the test rewrites the file instead.
 */
class ConfigurationDocTests {

    static final Path ROOT = Path.of(System.getProperty("seqlink-build.root", "..")).toAbsolutePath().normalize();
    static final Path DOC = ROOT.resolve("docs/configuration.md");

    @Test
    void theCommittedReferenceIsWhatTheMetadataGenerates() throws IOException {
        String generated = ConfigurationDocGenerator.generate();
        Path copy = Path.of("target/generated-docs/configuration.md");
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, generated, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("seqlink-build.docs-update")) {
            Files.writeString(DOC, generated, StandardCharsets.UTF_8);
        }
        assertThat(DOC).as("docs/configuration.md exists").exists();
        assertThat(Files.readString(DOC, StandardCharsets.UTF_8))
                .as("docs/configuration.md is out of date with the configuration metadata (the new version is in "
                        + "sample-app/target/generated-docs/configuration.md). Regenerate it: mvn -B -ntp -pl sample-app -am test "
                        + "-Dtest=ConfigurationDocTests -Dsurefire.failIfNoSpecifiedTests=false -Dseqlink-build.docs-update=true")
                .isEqualTo(generated);
    }

    @Test
    void everyPropertyOfTheMetadataIsInTheReference() {
        String generated = ConfigurationDocGenerator.generate();
        List<ConfigurationDocGenerator.Property> all = ConfigurationDocGenerator.properties();
        assertThat(all).extracting(ConfigurationDocGenerator.Property::name)
                .contains("seqlink.backend", "seqlink.topology.required-link-class", "seqlink.channels.<name>.slot-size",
                        "management.health.seqlink.enabled");
        for (ConfigurationDocGenerator.Property p : all) {
            assertThat(generated).contains("| `" + p.name() + "` |");
            assertThat(p.description()).as(p.name() + " has a description").isNotBlank();
        }
    }

    @Test
    void everySeqlinkKeyTheSampleConfiguresIsADocumentedProperty() throws IOException {
        Set<String> documented = ConfigurationDocGenerator.properties().stream()
                .map(ConfigurationDocGenerator.Property::name).collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        try (Stream<Path> files = Files.list(ROOT.resolve("sample-app/src/main/resources"))) {
            for (Path yml : files.filter(f -> f.getFileName().toString().matches("application.*\\.yml")).toList()) {
                YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
                yaml.setResources(new FileSystemResource(yml));
                Properties props = yaml.getObject();
                for (String key : props.stringPropertyNames()) {
                    if (key.startsWith("seqlink.") && !documented.contains(normalize(key))) {
                        unknown.add(yml.getFileName() + ": " + key);
                    }
                }
            }
        }
        assertThat(unknown).as("keys the sample sets that the metadata does not describe").isEmpty();
    }

    /**
     * {@code seqlink.channels.frames.consumers[0]} -> {@code seqlink.channels.<name>.consumers} (and so for
     * {@code seqlink.attach} and {@code seqlink.observation.channels}); map keys dropped.
     */
    static String normalize(String key) {
        String k = key.replaceAll("\\[\\d+]$", "");
        for (String map : List.of("seqlink.channels", "seqlink.attach", "seqlink.observation.channels")) {
            if (k.startsWith(map + ".")) {
                String rest = k.substring(map.length() + 1);
                return map + ".<name>" + rest.substring(rest.indexOf('.'));
            }
        }
        for (String map : List.of("seqlink.emulated.links", "seqlink.emulated.latency")) {
            if (k.startsWith(map + ".")) {
                return map;
            }
        }
        return k;
    }
}

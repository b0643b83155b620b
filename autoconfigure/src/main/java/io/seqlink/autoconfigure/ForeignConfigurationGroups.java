package io.seqlink.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.json.JsonParser;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The {@code seqlink.*} groups that other modules bind ({@code seqlink.ucx} of seqlink-ucx, say), read
 * from the configuration metadata their jars carry ({@code META-INF/spring-configuration-metadata.json},
 * which Spring Boot's configuration processor generates). Their keys are theirs to check, not
 * {@link SeqlinkProperties}'. Stateless; safe from any thread.
 */
final class ForeignConfigurationGroups {

    private static final String METADATA = "META-INF/spring-configuration-metadata.json";

    private ForeignConfigurationGroups() {
    }

    /** The groups under {@code seqlink.} whose source type is not one of {@link SeqlinkProperties}' records. */
    static List<ConfigurationPropertyName> on(ClassLoader loader) {
        JsonParser json = JsonParserFactory.getJsonParser();
        List<ConfigurationPropertyName> groups = new ArrayList<>();
        try {
            Enumeration<URL> files = loader.getResources(METADATA);
            while (files.hasMoreElements()) {
                try (InputStream in = files.nextElement().openStream()) {
                    Object listed = json.parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8)).get("groups");
                    if (listed instanceof List<?> list) {
                        list.forEach(g -> foreign(g, groups));
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read the configuration metadata on the class path (" + METADATA + ")", ex);
        }
        return groups;
    }

    private static void foreign(Object group, List<ConfigurationPropertyName> groups) {
        if (group instanceof Map<?, ?> g && g.get("name") instanceof String name && name.startsWith("seqlink.")
                && !String.valueOf(g.get("sourceType")).startsWith(SeqlinkProperties.class.getName())
                && ConfigurationPropertyName.isValid(name)) {
            groups.add(ConfigurationPropertyName.of(name));
        }
    }
}

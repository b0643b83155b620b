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
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.json.JsonParser;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The {@code seqlink.*} groups that other modules bind ({@code seqlink.ucx} of seqlink-ucx, say), read
 * from the configuration metadata their jars carry ({@code META-INF/spring-configuration-metadata.json},
 * which Spring Boot's configuration processor generates). A module contributes its group's keys to the
 * unknown-key check by what it already declares: a group whose type is a record annotated
 * {@code @ConfigurationProperties} with the group's name as prefix is checked like
 * {@link SeqlinkProperties} itself ({@link Group#type()}); the keys of any other such group are left to
 * its module. Stateless; safe from any thread.
 */
final class ForeignConfigurationGroups {

    private static final String METADATA = "META-INF/spring-configuration-metadata.json";

    /**
     * A group another module declares.
     *
     * @param name its name, e.g. {@code seqlink.ucx}
     * @param type its properties record when the module contributes it to the check, else {@code null}
     */
    record Group(ConfigurationPropertyName name, @Nullable Class<?> type) {

        boolean covers(ConfigurationPropertyName key) {
            return name.equals(key) || name.isAncestorOf(key);
        }
    }

    private ForeignConfigurationGroups() {
    }

    /** The groups under {@code seqlink.} whose source type is not one of {@link SeqlinkProperties}' records. */
    static List<Group> on(ClassLoader loader) {
        JsonParser json = JsonParserFactory.getJsonParser();
        List<Group> groups = new ArrayList<>();
        try {
            Enumeration<URL> files = loader.getResources(METADATA);
            while (files.hasMoreElements()) {
                try (InputStream in = files.nextElement().openStream()) {
                    Object listed = json.parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8)).get("groups");
                    if (listed instanceof List<?> list) {
                        list.forEach(g -> foreign(g, loader, groups));
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read the configuration metadata on the class path (" + METADATA + ")", ex);
        }
        return groups;
    }

    private static void foreign(Object group, ClassLoader loader, List<Group> groups) {
        if (group instanceof Map<?, ?> g && g.get("name") instanceof String name && name.startsWith("seqlink.")
                && !String.valueOf(g.get("sourceType")).startsWith(SeqlinkProperties.class.getName())
                && ConfigurationPropertyName.isValid(name)) {
            groups.add(new Group(ConfigurationPropertyName.of(name), contributed(name, g.get("type"), loader)));
        }
    }

    /** The group's type if it is a record bound at exactly this prefix, else {@code null}. */
    private static @Nullable Class<?> contributed(String name, @Nullable Object type, ClassLoader loader) {
        if (!(type instanceof String typeName)) {
            return null;
        }
        try {
            Class<?> c = Class.forName(typeName, false, loader);
            ConfigurationProperties bound = c.getAnnotation(ConfigurationProperties.class);
            String prefix = bound == null ? "" : bound.prefix().isEmpty() ? bound.value() : bound.prefix();
            return c.isRecord() && name.equals(prefix) ? c : null;
        } catch (ClassNotFoundException | LinkageError ex) {
            return null; // metadata without its classes: the module is not really there
        }
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.channel.Violation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Finds {@code seqlink.*} keys that bind to nothing ({@code slot-sise}, {@code consumer}) and names the
 * nearest valid key for each. Which keys are left unbound is Spring Boot's own judgement
 * ({@link NoUnboundElementsBindHandler}, as for {@code @ConfigurationProperties(ignoreUnknownFields =
 * false)}), so every relaxed form that binds (kebab, camelCase, {@code SEQLINK_...} environment
 * variables) is accepted. The valid names come from the structure of {@link SeqlinkProperties}: its
 * records' components, map keys ({@code channels.<name>}, {@code emulated.links.<pair>}) taken as
 * written. A group another module declares in its configuration metadata is checked the same way
 * against that module's properties record when the metadata names one ({@code seqlink.ucx} of
 * seqlink-ucx); any other is left to its module ({@link ForeignConfigurationGroups}). Stateless; safe
 * from any thread.
 */
public final class UnknownProperties {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("seqlink");

    private UnknownProperties() {
    }

    /**
     * Every unknown {@code seqlink.*} key in {@code environment}, as a violation naming the nearest valid
     * key: in {@link Found#configured()} those the application's configuration sets (files, command
     * line, JVM system properties, test properties); in {@link Found#machine()} those from OS
     * environment variables, which every process of the session or container inherits (a
     * {@code SEQLINK_HOME} of another tool, say) and the application does not choose, so they are only
     * worth a warning.
     */
    static Found find(Environment environment) {
        Binder binder = Binder.get(environment);
        List<ForeignConfigurationGroups.Group> foreign = ForeignConfigurationGroups.on(classLoader());
        List<Located> unknown = new ArrayList<>();
        for (ConfigurationProperty p : unbound(binder, ROOT, SeqlinkProperties.class)) {
            if (foreign.stream().noneMatch(g -> g.covers(p.getName()))) {
                unknown.add(new Located(p, locate(p.getName(), ROOT, SeqlinkProperties.class)));
            }
        }
        for (ForeignConfigurationGroups.Group g : foreign) {
            Class<?> type = g.type();
            if (type != null) { // a module's own record: its keys are checked against it
                for (ConfigurationProperty p : unbound(binder, g.name(), type)) {
                    unknown.add(new Located(p, locate(p.getName(), g.name(), type)));
                }
            }
        }
        Map<String, Violation> configured = new LinkedHashMap<>();
        Map<String, Violation> machine = new LinkedHashMap<>();
        unknown.sort(Comparator.comparing(l -> l.property().getName().toString()));
        for (Located l : unknown) {
            if (l.unknown() != null) {
                (fromTheMachine(l.property()) ? machine : configured).putIfAbsent(l.unknown().key(), violation(l.unknown(), l.property()));
            }
        }
        return new Found(List.copyOf(configured.values()), List.copyOf(machine.values()));
    }

    /**
     * Every {@code seqlink.*} key of {@code environment} that names no property, OS environment variables
     * included, each with the nearest valid key as its fix: what a failure analysis adds when the problem it
     * reports may come from a misspelt key that was only warned about.
     */
    public static List<Violation> all(Environment environment) {
        Found found = find(environment);
        List<Violation> all = new ArrayList<>(found.configured());
        all.addAll(found.machine());
        return all;
    }

    /** The keys under {@code root} that binding {@code type} there leaves unbound (Spring Boot's own judgement). */
    private static List<ConfigurationProperty> unbound(Binder binder, ConfigurationPropertyName root, Class<?> type) {
        try {
            binder.bind(root, Bindable.of(type), new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
            return List.of();
        } catch (BindException ex) {
            // a value that does not convert: the real binding reports it, naming the property
            return ex.getCause() instanceof UnboundConfigurationPropertiesException u ? new ArrayList<>(u.getUnboundProperties())
                    : List.of();
        }
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : UnknownProperties.class.getClassLoader();
    }

    /** Whether {@code p} comes from an OS environment variable (JVM system properties are this application's configuration). */
    private static boolean fromTheMachine(ConfigurationProperty p) {
        Object source = p.getSource() == null ? null : p.getSource().getUnderlyingSource();
        String name = source instanceof PropertySource<?> ps ? ps.getName() : "";
        return StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(name);
    }

    /** An unbound key and where it leaves the structure ({@code null}: not a misspelling). */
    private record Located(ConfigurationProperty property, @Nullable Unknown unknown) {
    }

    /**
     * Unknown keys found.
     *
     * @param configured set by the application's configuration: fail startup (unless opted out)
     * @param machine    set by OS environment variables: warned about
     */
    record Found(List<Violation> configured, List<Violation> machine) {
    }

    /**
     * Where in the structure of {@code record}, bound at {@code root}, {@code name} leaves it: the
     * unknown key (up to the first element that names nothing) and the valid keys beside it;
     * {@code null} when every element names something (an element of a list or a map value set twice,
     * which is not a misspelling).
     */
    static @Nullable Unknown locate(ConfigurationPropertyName name, ConfigurationPropertyName root, Class<?> record) {
        Class<?> type = record;
        StringBuilder prefix = new StringBuilder(root.toString());
        int i = root.getNumberOfElements();
        while (i < name.getNumberOfElements()) {
            if (!type.isRecord()) {
                return null; // a value (a scalar, a list, a map of values): what lies below is the value's own
            }
            RecordComponent match = null;
            int used = 0;
            // an environment variable may split a kebab name into elements: SEQLINK_EMULATED_DEVICE_COUNT
            for (RecordComponent c : type.getRecordComponents()) {
                String uniform = uniform(c.getName());
                StringBuilder joined = new StringBuilder();
                for (int j = i; j < name.getNumberOfElements() && joined.length() < uniform.length(); j++) {
                    joined.append(name.getElement(j, Form.UNIFORM));
                    if (joined.toString().equals(uniform)) {
                        match = c;
                        used = j - i + 1;
                        break;
                    }
                }
                if (match != null) {
                    break;
                }
            }
            if (match == null) {
                String element = name.getElement(i, Form.DASHED);
                return new Unknown(prefix + "." + element, prefix.toString(), element, validKeys(type));
            }
            prefix.append('.').append(kebab(match.getName()));
            i += used;
            Type generic = match.getGenericType();
            if (Map.class.isAssignableFrom(match.getType()) && i < name.getNumberOfElements()) {
                prefix.append('.').append(name.getElement(i, Form.ORIGINAL));
                i++;
                type = rawType(((ParameterizedType) generic).getActualTypeArguments()[1]);
            } else {
                type = match.getType();
            }
        }
        return null;
    }

    private static Violation violation(Unknown u, ConfigurationProperty p) {
        String nearest = nearest(u.element(), u.valid());
        String origin = p.getOrigin() == null ? "" : " (set in " + p.getOrigin() + ")";
        String problem = "there is no such property" + origin + ": it would be ignored";
        String fix = (nearest != null ? "did you mean " + u.parent() + "." + nearest + "? " : "")
                + "The keys under " + u.parent() + " are " + String.join(", ", u.valid())
                + " (docs/configuration.md). To only warn about unknown keys, set seqlink.fail-on-unknown-properties=false";
        return new Violation(u.key(), problem, fix);
    }

    /** The valid key closest to {@code element}, or {@code null} when none is close enough to be a misspelling ({@link NearestName}). */
    static @Nullable String nearest(String element, List<String> valid) {
        return NearestName.of(element, valid);
    }

    private static List<String> validKeys(Class<?> record) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) {
            keys.add(kebab(c.getName()));
        }
        return keys;
    }

    private static Class<?> rawType(Type t) {
        return t instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) t;
    }

    /** {@code slotSize} as a property key: {@code slot-size}. */
    static String kebab(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String uniform(String key) {
        return NearestName.uniform(key);
    }

    /**
     * An unknown key.
     *
     * @param key     the key up to the element that names nothing, e.g. {@code seqlink.channels.frames.slot-sise}
     * @param parent  the key above it, e.g. {@code seqlink.channels.frames}
     * @param element the element that names nothing, e.g. {@code slot-sise}
     * @param valid   the keys that may stand there
     */
    record Unknown(String key, String parent, String element, List<String> valid) {
    }
}

package io.seqlink.backend.cuda;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a benchmark main of this package: {@code --name value} pairs and the flag
 * {@code --short} (a quick run), checked against the names the benchmark knows. One thread: built and read
 * by the main thread.
 */
final class BenchArgs {

    private final Map<String, String> values = new HashMap<>();
    private final boolean quick;

    /** Parses {@code args}; an unknown name or a missing value throws naming it and {@code usage}. */
    BenchArgs(String[] args, String usage, String... names) {
        Set<String> known = Set.of(names);
        boolean q = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--short")) {
                q = true;
                continue;
            }
            if (!known.contains(a)) {
                throw new IllegalArgumentException("unknown option '" + a + "'; see " + usage);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value; see " + usage);
            }
            values.put(a, args[++i]);
        }
        this.quick = q;
    }

    /** Whether {@code --short} was given. */
    boolean quick() {
        return quick;
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    long number(String name, long fallback) {
        String v = values.get(name);
        return v == null ? fallback : parseLong(name, v);
    }

    /** A comma-separated list of numbers. */
    long[] numbers(String name, long[] fallback) {
        String v = values.get(name);
        if (v == null) {
            return fallback.clone();
        }
        String[] parts = v.split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parseLong(name, parts[i].trim());
        }
        return out;
    }

    static long parseLong(String flag, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}

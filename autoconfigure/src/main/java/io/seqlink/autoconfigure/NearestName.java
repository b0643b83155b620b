package io.seqlink.autoconfigure;

import java.util.Collection;
import java.util.Locale;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.jspecify.annotations.Nullable;

/**
 * The valid name a mistyped one most likely meant ({@code slot-sise}: {@code slot-size}; a qualifier
 * {@code orders}: channel {@code order}), by edit distance over Spring Boot's uniform form (case and
 * dashes ignored). At most a third of the letters (and at least 2) may differ, or no name is close
 * enough to be a misspelling. Stateless; safe from any thread.
 */
public final class NearestName {

    private static final LevenshteinDistance DISTANCE = LevenshteinDistance.getDefaultInstance();

    private NearestName() {
    }

    /** The name of {@code valid} closest to {@code typed}, or {@code null} when none is close enough. */
    public static @Nullable String of(String typed, Collection<String> valid) {
        String t = uniform(typed);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : valid) {
            int d = DISTANCE.apply(t, uniform(candidate));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return bestDistance <= Math.max(2, t.length() / 3) ? best : null;
    }

    static String uniform(String key) {
        return key.replace("-", "").toLowerCase(Locale.ROOT);
    }
}

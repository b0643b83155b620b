package io.seqlink.spring.support;

import io.seqlink.SeqlinkRuntime;
import java.util.regex.Pattern;

/**
 * Why the runtime runs on its backend, for people: health, the endpoint and the sample show the
 * runtime's calm reason ("no usable CUDA driver on this host (...)"), cut to its first clause should it
 * ever carry an exception's text (a CUDA backend that failed to open); the whole finding, with the
 * loader error behind a fallback, stays in the endpoint's {@code backendDetail} and the DEBUG log.
 * Stateless; safe from any thread.
 */
public final class BackendReasons {

    /** Longest reason shown whole. */
    private static final int MAX_SHORT = 100;

    /** A Java exception or error named in the text: the mark of a reason that carries its cause. */
    private static final Pattern THROWABLE = Pattern.compile("\\b[A-Z]\\w*(Error|Exception)\\b");

    private BackendReasons() {
    }

    /** The reason in a few words: whole when short and free of an exception's text, else its first clause. */
    public static String summary(SeqlinkRuntime runtime) {
        return summary(runtime.backendReason());
    }

    /** The whole finding behind the reason: the driver probe's summary, with the loader error behind a fallback. */
    public static String detail(SeqlinkRuntime runtime) {
        return String.valueOf(runtime.backendChoice().detail());
    }

    static String summary(String reason) {
        if (reason == null) {
            return "";
        }
        String line = reason.lines().findFirst().orElse("").strip();
        if (line.length() <= MAX_SHORT && !THROWABLE.matcher(line).find()) {
            return line;
        }
        int end = line.length();
        for (String mark : new String[] {": ", " (", "; "}) {
            int at = line.indexOf(mark);
            if (at > 0 && at < end) {
                end = at;
            }
        }
        String head = line.substring(0, end).strip();
        return head.length() <= MAX_SHORT ? head : head.substring(0, MAX_SHORT - 1).strip() + "\u2026";
    }
}

package io.seqlink.docs;

import static org.assertj.core.api.Assertions.assertThat;

/** Cutting examples out of sources and pages, and comparing them whatever their indentation. */
final class Docs {

    private Docs() {
    }

    static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        int to = text.indexOf(end, from + start.length());
        assertThat(from).as("marker %s", start.trim()).isNotNegative();
        assertThat(to).as("marker %s", end.trim()).isPositive();
        return text.substring(from + start.length(), to);
    }

    /** The same code, whatever its indentation and blank lines. */
    static String normalize(String code) {
        return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}

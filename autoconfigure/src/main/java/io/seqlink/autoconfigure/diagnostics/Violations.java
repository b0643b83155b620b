package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.channel.Violation;
import java.util.List;

/** Formats violations for a failure analysis: every problem in the description, every fix in the action. */
final class Violations {

    private Violations() {
    }

    static String description(String heading, List<Violation> violations) {
        StringBuilder sb = new StringBuilder(heading).append(violations.size() == 1 ? " (1 problem):" : " (" + violations.size()
                + " problems):").append('\n');
        for (Violation v : violations) {
            sb.append('\n').append("    Property: ").append(v.property()).append('\n')
                    .append("    Problem:  ").append(v.problem()).append('\n');
        }
        return sb.toString();
    }

    static String action(List<Violation> violations) {
        StringBuilder sb = new StringBuilder("Update your application's configuration:\n");
        for (Violation v : violations) {
            sb.append("\n    ").append(v.property()).append(": ").append(v.fix());
        }
        return sb.append('\n').toString();
    }
}

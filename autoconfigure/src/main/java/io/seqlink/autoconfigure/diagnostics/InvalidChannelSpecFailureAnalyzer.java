package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.channel.InvalidChannelSpecException;
import java.util.Objects;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a channel specification the runtime rejected (a channel opened in code, or by an
 * application's own runtime bean): every problem at once.
 */
class InvalidChannelSpecFailureAnalyzer extends AbstractFailureAnalyzer<InvalidChannelSpecException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidChannelSpecException cause) {
        String heading = Objects.requireNonNullElse(cause.getMessage(), "").lines().findFirst().orElse("Invalid seqlink channel").replaceAll(":$", "");
        return new FailureAnalysis(Violations.description(heading, cause.violations()), Violations.action(cause.violations()),
                cause);
    }
}

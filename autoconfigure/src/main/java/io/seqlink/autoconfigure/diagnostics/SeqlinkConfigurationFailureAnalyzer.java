package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.SeqlinkConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an invalid seqlink configuration ({@code seqlink.*} properties, or a
 * {@code @ChannelListener}): every invalid property at once, each with its full name, what is wrong
 * and what to set instead.
 */
class SeqlinkConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SeqlinkConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SeqlinkConfigurationException cause) {
        return new FailureAnalysis(Violations.description("The seqlink configuration is invalid", cause.violations()),
                Violations.action(cause.violations()), cause);
    }
}

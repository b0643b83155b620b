package io.seqlink;

import io.seqlink.channel.Violation;
import io.seqlink.error.SeqlinkException;
import java.util.List;
import java.util.stream.Collectors;

/** The runtime's own configuration (devices, backend) is wrong; lists everything at once. */
public class SeqlinkConfigurationException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final transient List<Violation> violations;

    public SeqlinkConfigurationException(List<Violation> violations) {
        super("Invalid seqlink configuration:\n" + violations.stream().map(v -> "  - " + v).collect(Collectors.joining("\n")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}

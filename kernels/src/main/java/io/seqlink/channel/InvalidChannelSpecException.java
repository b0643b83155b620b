package io.seqlink.channel;

import io.seqlink.error.SeqlinkException;
import java.util.List;
import java.util.stream.Collectors;

/** A channel specification was rejected; {@link #violations()} lists everything wrong with it at once. */
public class InvalidChannelSpecException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final transient List<Violation> violations;

    public InvalidChannelSpecException(String channel, List<Violation> violations) {
        super("Invalid seqlink channel '" + channel + "':\n" + violations.stream().map(v -> "  - " + v)
                .collect(Collectors.joining("\n")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}

package io.seqlink.channel.shared;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jspecify.annotations.Nullable;

/** The user of the process at the other end of a Unix domain socket ({@code SO_PEERCRED}), where the platform tells. */
final class PeerUser {

    private PeerUser() {
    }

    /** The peer's user name, or {@code null} where the platform does not say (the directory's 0700 still keeps others out). */
    static @Nullable String of(SocketChannel c) {
        try {
            UnixDomainPrincipal p = c.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return p == null ? null : p.user().getName();
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }
}

package io.seqlink.channel.shared;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * The user of the process at the other end of a Unix domain socket ({@code SO_PEERCRED}), where the platform and the Java
 * runtime tell: the option lives in module {@code jdk.net}, which a runtime made with {@code jlink} may leave out.
 */
final class PeerUser {

    /** Whether this Java runtime has {@code jdk.net}; without it nothing here touches its classes. */
    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.net").isPresent();

    private PeerUser() {
    }

    /** Whether {@link #of} can tell a peer's user in this Java runtime (module {@code jdk.net} present). */
    static boolean available() {
        return AVAILABLE;
    }

    /**
     * The peer's user name, or {@code null} where the platform or the Java runtime does not say (the directory's 0700
     * and the socket's 0600 still keep other users out).
     */
    static @Nullable String of(SocketChannel c) {
        if (!AVAILABLE) {
            return null;
        }
        try {
            UnixDomainPrincipal p = c.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return p == null ? null : p.user().getName();
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.Violation;
import io.seqlink.security.SharedSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The runtime's {@link ChannelShare} and {@link AttachSpec} from {@code seqlink.channels.<name>.share} and
 * {@code seqlink.attach.<name>}: the default directory, and the secret read from its file once the file passed its
 * checks ({@link #checkSecretFile}: set, there, readable, closed to group and others, long enough). Stateless; any
 * thread.
 */
public final class ShareSettings {

    /** Stands in for a share's secret when a specification is only validated: never used to share anything. */
    static final SharedSecret NOT_READ = SharedSecret.of("validation only, never a channel's secret", "validation");

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private ShareSettings() {
    }

    /** {@code /dev/shm/seqlink-<user>}, or {@code <java.io.tmpdir>/seqlink-<user>} where {@code /dev/shm} does not exist. */
    public static Path defaultDirectory() {
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("seqlink-" + System.getProperty("user.name"));
    }

    static Path directory(@Nullable Path configured) {
        return configured != null ? configured : defaultDirectory();
    }

    /** The share channel {@code name}'s properties ask for, its secret read from its file; {@code null} when not enabled. */
    static @Nullable ChannelShare share(String name, SeqlinkProperties.Share s) {
        if (!s.enabled()) {
            return null;
        }
        String prefix = SeqlinkPropertiesValidator.channelPrefix(name) + "share.";
        return withSettings(s, SharedSecret.fromFile(requireFile(s.secretFile(), prefix), prefix + "secret-file"));
    }

    /**
     * The share the properties ask for with a stand-in secret, for validating a specification; {@code null} when not
     * enabled. Durations out of range stand in as the defaults: the validator reports them under their own properties.
     */
    static @Nullable ChannelShare shareToValidate(SeqlinkProperties.Share s) {
        if (!s.enabled()) {
            return null;
        }
        java.time.Duration heartbeat = s.heartbeat();
        java.time.Duration handshake = s.handshakeTimeout();
        SeqlinkProperties.Share valid = new SeqlinkProperties.Share(true, s.directory(), s.secretFile(), s.seats(),
                heartbeat == null || heartbeat.isNegative() || heartbeat.isZero() ? null : heartbeat,
                handshake == null || handshake.isNegative() || handshake.isZero() ? ChannelShare.DEFAULT_HANDSHAKE_TIMEOUT : handshake);
        return withSettings(valid, NOT_READ);
    }

    private static ChannelShare withSettings(SeqlinkProperties.Share s, SharedSecret secret) {
        int seats = Math.max(1, Math.min(ChannelShare.MAX_SEATS, s.seats())); // out of range: reported by the validator
        ChannelShare share = new ChannelShare(directory(s.directory()), secret, seats, s.heartbeat(), s.handshakeTimeout());
        return share;
    }

    /** The attach {@code seqlink.attach.<name>} describes, its secret read from its file (at each call). Any thread. */
    public static AttachSpec attach(String name, SeqlinkProperties.Attach a) {
        String prefix = SeqlinkPropertiesValidator.attachPrefix(name);
        SharedSecret secret = SharedSecret.fromFile(requireFile(a.secretFile(), prefix), prefix + "secret-file");
        AttachSpec spec = new AttachSpec(name, directory(a.directory()), secret, a.device(), a.stallTimeout(), a.connectTimeout());
        return spec;
    }

    private static Path requireFile(@Nullable Path file, String prefix) {
        if (file == null) {
            throw new IllegalStateException(prefix + "secret-file is not set; SeqlinkPropertiesValidator reports it first");
        }
        return file;
    }

    /**
     * What is wrong with the secret file {@code property} names: not set, not there, not readable, readable or writable
     * by group or others, or holding too short a secret. Empty when it can be used.
     */
    static List<Violation> checkSecretFile(String property, @Nullable Path file) {
        String make = "e.g. openssl rand -base64 32 > /etc/seqlink/frames.key && chmod 600 /etc/seqlink/frames.key";
        if (file == null) {
            return List.of(new Violation(property, "it is not set: a shared channel's processes prove a secret they share",
                    "set it to a file holding the channel's secret (at least " + SharedSecret.MIN_BYTES + " bytes), the same "
                            + "file or content for the producer and its consumer processes; " + make));
        }
        if (!Files.exists(file)) {
            return List.of(new Violation(property, "the file " + file + " does not exist", "create it, " + make
                    + ", or point " + property + " at the channel's secret file"));
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            return List.of(new Violation(property, "the file " + file + " is not a readable regular file",
                    "give a file this process's user can read (chmod 600 " + file + ")"));
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            if (perms.stream().anyMatch(OTHERS::contains)) {
                return List.of(new Violation(property, "the secret file " + file + " is open to group or others (permissions "
                        + PosixFilePermissions.toString(perms) + "): another user could read the channel's secret",
                        "chmod 600 " + file));
            }
        } catch (UnsupportedOperationException | IOException e) {
            // a file system without POSIX permissions: nothing to check
        }
        try {
            SharedSecret.fromFile(file, property);
        } catch (IllegalArgumentException e) {
            return List.of(new Violation(property, String.valueOf(e.getMessage()), make));
        }
        return List.of();
    }
}

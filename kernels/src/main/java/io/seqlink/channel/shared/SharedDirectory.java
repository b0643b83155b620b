package io.seqlink.channel.shared;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * The owner-only rules for a share directory and the entries in it: the directory {@code 0700} and this process's
 * user's, the region and socket {@code 0600}. So no process of another user reaches either. Stateless; any thread.
 */
final class SharedDirectory {

    static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    /** sun_path holds 108 bytes with its terminating zero. */
    static final int MAX_SOCKET_PATH = 107;

    private SharedDirectory() {
    }

    /** The region file of {@code channel} in {@code directory}. */
    static Path region(Path directory, String channel) {
        return directory.resolve(channel + ".shm");
    }

    /** The attach socket of {@code channel} in {@code directory}. */
    static Path socket(Path directory, String channel) {
        return directory.resolve(channel + ".sock");
    }

    /**
     * Creates {@code directory} owner-only when missing, else checks it is this user's and owner-only; {@code where}
     * names the setting in the error. Returns the absolute path.
     */
    static Path prepare(Path directory, String where) throws IOException {
        Path dir = directory.toAbsolutePath();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
            Files.setPosixFilePermissions(dir, OWNER_DIRECTORY); // the umask may have taken bits away; never added any
        }
        check(dir, where);
        return dir;
    }

    /** Fails naming {@code where} unless {@code dir} is a directory of this user that only this user can reach. */
    static void check(Path dir, String where) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(where + " " + dir + " is not a directory (a symbolic link is not accepted); point " + where
                    + " at a directory of this user's, e.g. /dev/shm/seqlink-" + System.getProperty("user.name"));
        }
        UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
        UserPrincipal me = dir.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        if (!owner.equals(me)) {
            throw new IOException(where + " " + dir + " belongs to " + owner.getName() + ", not to this process's user "
                    + me.getName() + "; use a directory of this user's");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> others = EnumSet.copyOf(perms);
        others.removeAll(OWNER_DIRECTORY);
        if (!others.isEmpty()) {
            throw new IOException(where + " " + dir + " is " + PosixFilePermissions.toString(perms)
                    + ": group or others can reach it; run chmod 700 " + dir + " or use another directory");
        }
    }

    /** Makes {@code file} owner-only read-write. */
    static void ownerOnly(Path file) throws IOException {
        Files.setPosixFilePermissions(file, OWNER_FILE);
    }
}

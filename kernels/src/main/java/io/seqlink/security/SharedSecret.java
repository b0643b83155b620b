package io.seqlink.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A secret two peers share, as bytes. It never prints: {@link #toString()} says only its length, so a
 * secret in a settings record or a log line stays out of logs, actuator output and exception messages.
 *
 * <p>Immutable and thread-safe; {@link #keyBytes()} hands out a copy.
 */
public final class SharedSecret {

    /** The shortest secret accepted, in bytes: an HMAC-SHA256 key shorter than this is guessable offline. */
    public static final int MIN_BYTES = 16;

    private final byte[] key;

    private SharedSecret(byte[] key) {
        this.key = key;
    }

    /**
     * The secret given as text (a property value), its UTF-8 bytes.
     *
     * @param where what names the setting in an error (a property name or a builder call)
     * @throws IllegalArgumentException if it is shorter than {@link #MIN_BYTES} bytes; the message names
     *     {@code where} and never the value
     */
    public static SharedSecret of(String text, String where) {
        return ofBytes(text.strip().getBytes(StandardCharsets.UTF_8), where);
    }

    /**
     * The secret held in a file (its content, surrounding whitespace stripped).
     *
     * @throws IllegalArgumentException if the file cannot be read or holds fewer than {@link #MIN_BYTES}
     *     bytes; the message names the file and {@code where}, never the content
     */
    public static SharedSecret fromFile(Path file, String where) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(where + ": cannot read the secret file " + file + " ("
                    + e.getClass().getSimpleName() + "); give a readable file holding at least " + MIN_BYTES
                    + " bytes", e);
        }
        return of(text, where + " (" + file + ")");
    }

    /** The secret as raw bytes (copied). */
    public static SharedSecret ofBytes(byte[] bytes, String where) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException(where + ": the secret has " + bytes.length + " bytes, fewer than "
                    + MIN_BYTES + "; use at least " + MIN_BYTES + " random bytes (for example the output of "
                    + "'openssl rand -base64 32')");
        }
        return new SharedSecret(bytes.clone());
    }

    /** A copy of the key bytes, for a MAC. */
    byte[] keyBytes() {
        return key.clone();
    }

    /** The key's length in bytes. */
    public int length() {
        return key.length;
    }

    /** Two secrets are equal when their bytes are (compared in constant time). */
    @Override
    public boolean equals(Object other) {
        return other instanceof SharedSecret that && java.security.MessageDigest.isEqual(key, that.key);
    }

    @Override
    public int hashCode() {
        return key.length; // never derived from the bytes
    }

    /** Says only that this is a secret and its length. */
    @Override
    public String toString() {
        return "SharedSecret[" + key.length + " bytes, redacted]";
    }
}

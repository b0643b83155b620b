package io.seqlink.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual proof of a {@link SharedSecret}: an HMAC-SHA256 challenge–response with a fresh nonce from each
 * side, for a handshake between an <em>initiator</em> (the side that connects: a sender, a consumer
 * process) and a <em>responder</em> (the side that listens).
 *
 * <h2>The exchange</h2>
 * <ol>
 *   <li>initiator → responder: its nonce {@code Ni} (and what it asks for: channel, epoch);</li>
 *   <li>responder → initiator: its nonce {@code Nr} and {@code proof(RESPONDER, channel, epoch, Ni, Nr)};</li>
 *   <li>initiator checks that proof, then sends {@code proof(INITIATOR, channel, epoch, Ni, Nr)};</li>
 *   <li>responder checks it; only then does the session exist, bound to the endpoint that sent it.</li>
 * </ol>
 *
 * <h2>Why a replay or a reflection fails</h2>
 * A proof is a MAC over a domain tag, the role, the channel, the epoch and <em>both</em> nonces. Each side
 * picks its nonce afresh per attempt (128 bits from {@link SecureRandom}), so a proof recorded from an
 * earlier handshake was made for another nonce pair and does not verify; sending a side's own proof back
 * to it fails because the role is in the MAC; a proof for one channel or epoch is not one for another.
 * Without the secret, making a proof for a new nonce is forging HMAC-SHA256. Comparison is constant-time.
 * This authenticates the handshake only: the messages after it are bound to the authenticated endpoint by
 * the transport, and nothing here encrypts.
 *
 * <p>Thread-safe: every call makes its own {@link Mac} (a handshake is per connection, never per frame).
 */
public final class PeerChallenge {

    /** Which side of the handshake a proof speaks for. */
    public enum Role {
        /** The side that connects. */
        INITIATOR,
        /** The side that listens. */
        RESPONDER
    }

    /** Bytes in a nonce. */
    public static final int NONCE_BYTES = 16;
    /** Bytes in a proof (HMAC-SHA256). */
    public static final int PROOF_BYTES = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] DOMAIN = "seqlink-peer-challenge/1".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SharedSecret secret;

    /** A challenge–response keyed by {@code secret}. */
    public PeerChallenge(SharedSecret secret) {
        this.secret = secret;
    }

    /** A fresh nonce of {@link #NONCE_BYTES} random bytes. */
    public static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /**
     * The proof {@code role} sends for this handshake.
     *
     * @throws IllegalArgumentException if a nonce is not {@link #NONCE_BYTES} long
     */
    public byte[] proof(Role role, String channel, long epoch, byte[] initiatorNonce, byte[] responderNonce) {
        requireNonce(initiatorNonce, "initiator");
        requireNonce(responderNonce, "responder");
        byte[] name = channel.getBytes(StandardCharsets.UTF_8);
        ByteBuffer input = ByteBuffer.allocate(DOMAIN.length + 1 + 4 + name.length + 8 + 2 * NONCE_BYTES)
                .put(DOMAIN)
                .put((byte) role.ordinal())
                .putInt(name.length)
                .put(name)
                .putLong(epoch)
                .put(initiatorNonce)
                .put(responderNonce);
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.keyBytes(), ALGORITHM));
            return mac.doFinal(input.array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM + ", which every Java 17 JDK must have", e);
        }
    }

    /**
     * Whether {@code proof} is the one {@code role} must send for this handshake. Any input a hostile peer
     * can shape (a proof or a nonce of the wrong length) gives {@code false}, never an exception.
     */
    public boolean verify(byte[] proof, Role role, String channel, long epoch, byte[] initiatorNonce,
            byte[] responderNonce) {
        if (proof.length != PROOF_BYTES || initiatorNonce.length != NONCE_BYTES
                || responderNonce.length != NONCE_BYTES) {
            return false;
        }
        return MessageDigest.isEqual(proof, proof(role, channel, epoch, initiatorNonce, responderNonce));
    }

    private static void requireNonce(byte[] nonce, String side) {
        if (nonce.length != NONCE_BYTES) {
            throw new IllegalArgumentException("the " + side + " nonce has " + nonce.length + " bytes, not " + NONCE_BYTES);
        }
    }
}

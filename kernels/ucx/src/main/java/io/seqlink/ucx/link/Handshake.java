package io.seqlink.ucx.link;

import io.seqlink.security.PeerChallenge;
import io.seqlink.ucx.BridgeSettings;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The messages that open a link, sent as UCX active messages, and their pure decoders:
 *
 * <pre>
 *  sender -> receiver   HELLO      channel, epoch, connection, window, slot size, oldest, staged, sender nonce
 *  receiver -> sender   CHALLENGE  receiver nonce, receiver proof          (only when the receiver has a secret)
 *  sender -> receiver   PROOF      connection, sender proof                (the answer to a CHALLENGE)
 *  receiver -> sender   WELCOME    accepted (resume at, window, stride) or refused (why)
 * </pre>
 *
 * The proofs are {@link PeerChallenge}'s (HMAC-SHA256 over the role, the channel, the sender's epoch and
 * both nonces): the sender is the initiator, the receiver the responder. Little-endian; each message
 * starts with a magic word and the protocol version, so a peer of another build or byte order is refused
 * with a message instead of misread. Every decoder validates every length and range before it uses it
 * and throws {@link MalformedMessageException}, and nothing else, for any input.
 */
public final class Handshake {

    public static final int HELLO_ID = 11;
    public static final int WELCOME_ID = 12;
    public static final int CHALLENGE_ID = 17;
    public static final int PROOF_ID = 18;
    static final int MAGIC = 0x53514c55; // "SQLU"
    static final int VERSION = 3;

    public static final int ACCEPTED = 0;
    public static final int REFUSED = 1;

    /** The longest channel name a HELLO may carry, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 1024;
    /** The longest refusal reason a WELCOME may carry, in UTF-8 bytes. */
    static final int MAX_REASON_BYTES = 4096;
    /** The largest slot a HELLO may announce: a landing slot's offset must fit an int. */
    static final long MAX_SLOT_BYTES = Integer.MAX_VALUE / 2;

    private static final int HELLO_FIXED = 8 + 8 * 2 + 4 + 8 * 3 + 4 + 4;
    private static final int WELCOME_FIXED = 8 + 4 + 8 + 4 + 8 + 4;
    private static final int CHALLENGE_BYTES = 8 + PeerChallenge.NONCE_BYTES + PeerChallenge.PROOF_BYTES;
    private static final int PROOF_MESSAGE_BYTES = 8 + 8 + PeerChallenge.PROOF_BYTES;

    private Handshake() {
    }

    /**
     * What the sender offers.
     *
     * @param channel    the channel name, the same on both hosts
     * @param epoch      random per sender process, never 0: a new epoch means a restarted sender
     * @param connection this connection's number: every later message carries it, and a message of another
     *                   connection is refused
     * @param window     slots of the sender's send ring, 1 to {@link BridgeSettings#MAX_WINDOW}
     * @param slotBytes  the largest frame the sender carries (its ring's stride follows from it)
     * @param oldest     the oldest link sequence the sender still holds (credited + 1), at least 1
     * @param staged     the newest link sequence staged: from {@code oldest - 1} to {@code oldest - 1 + window}
     * @param nonce      the sender's nonce, {@link PeerChallenge#NONCE_BYTES} bytes, or empty from a sender without a secret
     */
    public record Hello(String channel, long epoch, long connection, int window, long slotBytes, long oldest, long staged,
            byte[] nonce) {

        /** Whether the sender offers to authenticate. */
        public boolean authenticates() {
            return nonce.length == PeerChallenge.NONCE_BYTES;
        }
    }

    /**
     * What the receiver answers.
     *
     * @param status     {@link #ACCEPTED} or {@link #REFUSED}
     * @param reason     why it refused, or empty
     * @param resumeFrom the first link sequence the sender must (re)send
     * @param window     slots of the landing ring: the sender never sends a batch across its end
     * @param stride     bytes per landing slot: the sender's own stride, which the receiver adopts
     */
    public record Welcome(int status, String reason, long resumeFrom, int window, long stride) {

        public static Welcome refused(String reason) {
            return new Welcome(REFUSED, reason, 0, 0, 0);
        }
    }

    /** The receiver's challenge: its nonce and its proof over both nonces. */
    public record Challenge(byte[] nonce, byte[] proof) {
    }

    /** The sender's answer to a challenge, on connection {@code connection}. */
    public record Proof(long connection, byte[] proof) {
    }

    public static ByteBuffer encode(Hello h) {
        byte[] name = h.channel().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocateDirect(HELLO_FIXED + name.length + h.nonce().length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putLong(h.epoch()).putLong(h.connection()).putInt(h.window()).putLong(h.slotBytes())
                .putLong(h.oldest()).putLong(h.staged());
        b.putInt(name.length).put(name);
        b.putInt(h.nonce().length).put(h.nonce());
        return b.flip();
    }

    /** A HELLO, validated: a malformed one throws {@link MalformedMessageException}. Pure; any thread. */
    public static Hello decodeHello(ByteBuffer src) {
        ByteBuffer b = checked(src, "HELLO", HELLO_FIXED);
        long epoch = b.getLong();
        long connection = b.getLong();
        int window = b.getInt();
        long slotBytes = b.getLong();
        long oldest = b.getLong();
        long staged = b.getLong();
        byte[] name = getBytes(b, "HELLO channel name", MAX_NAME_BYTES);
        byte[] nonce = getBytes(b, "HELLO nonce", PeerChallenge.NONCE_BYTES);
        if (b.hasRemaining()) {
            throw new MalformedMessageException("a HELLO with " + b.remaining() + " B after its last field");
        }
        if (epoch == 0) {
            throw new MalformedMessageException("a HELLO with epoch 0 (never a sender's)");
        }
        if (window < 1 || window > BridgeSettings.MAX_WINDOW) {
            throw new MalformedMessageException("a HELLO with a window of " + window + ", outside 1 to " + BridgeSettings.MAX_WINDOW);
        }
        if (slotBytes < 0 || slotBytes > MAX_SLOT_BYTES) {
            throw new MalformedMessageException("a HELLO with a slot size of " + slotBytes + " B");
        }
        if (oldest < 1 || staged < oldest - 1 || staged - (oldest - 1) > window) {
            throw new MalformedMessageException("a HELLO holding frames " + oldest + ".." + staged + " in a window of " + window
                    + " (the oldest is at least 1, at most a window staged)");
        }
        if (nonce.length != 0 && nonce.length != PeerChallenge.NONCE_BYTES) {
            throw new MalformedMessageException("a HELLO nonce of " + nonce.length + " B, not 0 or " + PeerChallenge.NONCE_BYTES);
        }
        return new Hello(new String(name, StandardCharsets.UTF_8), epoch, connection, window, slotBytes, oldest, staged, nonce);
    }

    public static ByteBuffer encode(Welcome w) {
        byte[] reason = w.reason().getBytes(StandardCharsets.UTF_8);
        if (reason.length > MAX_REASON_BYTES) {
            reason = java.util.Arrays.copyOf(reason, MAX_REASON_BYTES);
        }
        ByteBuffer b = ByteBuffer.allocateDirect(WELCOME_FIXED + reason.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(w.status()).putLong(w.resumeFrom()).putInt(w.window()).putLong(w.stride());
        b.putInt(reason.length).put(reason);
        return b.flip();
    }

    /** A WELCOME, validated: a malformed one throws {@link MalformedMessageException}. Pure; any thread. */
    public static Welcome decodeWelcome(ByteBuffer src) {
        ByteBuffer b = checked(src, "WELCOME", WELCOME_FIXED);
        int status = b.getInt();
        long resumeFrom = b.getLong();
        int window = b.getInt();
        long stride = b.getLong();
        String reason = new String(getBytes(b, "WELCOME reason", MAX_REASON_BYTES), StandardCharsets.UTF_8);
        if (b.hasRemaining()) {
            throw new MalformedMessageException("a WELCOME with " + b.remaining() + " B after its last field");
        }
        if (status == ACCEPTED) {
            if (resumeFrom < 1 || window < 1 || window > BridgeSettings.MAX_WINDOW || stride < LinkLayout.LINE
                    || stride > LinkLayout.strideFor(MAX_SLOT_BYTES)) {
                throw new MalformedMessageException("a WELCOME resuming at " + resumeFrom + " with a window of " + window
                        + " and a stride of " + stride + " B");
            }
        } else if (status != REFUSED) {
            throw new MalformedMessageException("a WELCOME of status " + status);
        }
        return new Welcome(status, reason, resumeFrom, window, stride);
    }

    public static ByteBuffer encode(Challenge c) {
        ByteBuffer b = ByteBuffer.allocateDirect(CHALLENGE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).put(c.nonce()).put(c.proof());
        return b.flip();
    }

    /** A CHALLENGE, validated: exactly a nonce and a proof. Pure; any thread. */
    public static Challenge decodeChallenge(ByteBuffer src) {
        ByteBuffer b = checked(src, "CHALLENGE", CHALLENGE_BYTES);
        if (b.remaining() != CHALLENGE_BYTES - 8) {
            throw new MalformedMessageException("a CHALLENGE of " + (b.remaining() + 8) + " B, expected " + CHALLENGE_BYTES);
        }
        byte[] nonce = new byte[PeerChallenge.NONCE_BYTES];
        byte[] proof = new byte[PeerChallenge.PROOF_BYTES];
        b.get(nonce).get(proof);
        return new Challenge(nonce, proof);
    }

    public static ByteBuffer encode(Proof p) {
        ByteBuffer b = ByteBuffer.allocateDirect(PROOF_MESSAGE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putLong(p.connection()).put(p.proof());
        return b.flip();
    }

    /** A PROOF, validated: exactly a connection number and a proof. Pure; any thread. */
    public static Proof decodeProof(ByteBuffer src) {
        ByteBuffer b = checked(src, "PROOF", PROOF_MESSAGE_BYTES);
        if (b.remaining() != PROOF_MESSAGE_BYTES - 8) {
            throw new MalformedMessageException("a PROOF of " + (b.remaining() + 8) + " B, expected " + PROOF_MESSAGE_BYTES);
        }
        long connection = b.getLong();
        byte[] proof = new byte[PeerChallenge.PROOF_BYTES];
        b.get(proof);
        return new Proof(connection, proof);
    }

    private static ByteBuffer checked(ByteBuffer src, String what, int atLeast) {
        ByteBuffer b = src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < atLeast) {
            throw new MalformedMessageException("a seqlink UCX " + what + " of " + b.remaining() + " B is too short (at least "
                    + atLeast + " B)");
        }
        int magic = b.getInt();
        int version = b.getInt();
        if (magic != MAGIC) {
            throw new MalformedMessageException(String.format("not a seqlink UCX handshake (magic 0x%08x, expected 0x%08x): "
                    + "is the peer another program, or a big-endian host?", magic, MAGIC));
        }
        if (version != VERSION) {
            throw new MalformedMessageException("the peer speaks seqlink UCX protocol " + version + ", this build speaks "
                    + VERSION + ": run the same seqlink-ucx version on both hosts");
        }
        return b;
    }

    private static byte[] getBytes(ByteBuffer b, String what, int max) {
        if (b.remaining() < 4) {
            throw new MalformedMessageException("a " + what + " without its length");
        }
        int n = b.getInt();
        if (n < 0 || n > max || n > b.remaining()) {
            throw new MalformedMessageException("a " + what + " claims " + n + " B (at most " + max + "), " + b.remaining()
                    + " B left");
        }
        byte[] bytes = new byte[n];
        b.get(bytes);
        return bytes;
    }
}

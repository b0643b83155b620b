package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The two messages that open a link, sent as UCX active messages: the sender's {@link Hello} and the
 * receiver's {@link Welcome}. Little-endian; each starts with a magic word and the protocol version,
 * so a peer of another build or byte order is refused with a message instead of misread.
 */
public final class Handshake {

    public static final int HELLO_ID = 11;
    public static final int WELCOME_ID = 12;
    static final int MAGIC = 0x53514c55; // "SQLU"
    static final int VERSION = 2;

    public static final int ACCEPTED = 0;
    public static final int REFUSED = 1;

    private Handshake() {
    }

    /**
     * What the sender offers.
     *
     * @param channel    the channel name, the same on both hosts
     * @param epoch      random per sender process: a new epoch means a restarted sender
     * @param connection this connection's number: every later message carries it, and a message of another
     *                   connection is ignored
     * @param window     slots of the sender's send ring
     * @param slotBytes  the largest frame the sender carries (its ring's stride follows from it)
     * @param oldest     the oldest link sequence the sender still holds (credited + 1)
     * @param staged     the newest link sequence staged
     */
    public record Hello(String channel, long epoch, long connection, int window, long slotBytes, long oldest, long staged) {
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

    public static ByteBuffer encode(Hello h) {
        byte[] name = h.channel().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocateDirect(8 + 8 * 2 + 4 + 8 * 3 + 4 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putLong(h.epoch()).putLong(h.connection()).putInt(h.window()).putLong(h.slotBytes())
                .putLong(h.oldest()).putLong(h.staged());
        putBytes(b, name);
        return b.flip();
    }

    public static Hello decodeHello(ByteBuffer src) {
        ByteBuffer b = checked(src);
        long epoch = b.getLong();
        long connection = b.getLong();
        int window = b.getInt();
        long slotBytes = b.getLong();
        long oldest = b.getLong();
        long staged = b.getLong();
        String name = new String(getBytes(b), StandardCharsets.UTF_8);
        return new Hello(name, epoch, connection, window, slotBytes, oldest, staged);
    }

    public static ByteBuffer encode(Welcome w) {
        byte[] reason = w.reason().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocateDirect(8 + 4 + 8 + 4 + 8 + 4 + reason.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(w.status()).putLong(w.resumeFrom()).putInt(w.window()).putLong(w.stride());
        putBytes(b, reason);
        return b.flip();
    }

    public static Welcome decodeWelcome(ByteBuffer src) {
        ByteBuffer b = checked(src);
        int status = b.getInt();
        long resumeFrom = b.getLong();
        int window = b.getInt();
        long stride = b.getLong();
        String reason = new String(getBytes(b), StandardCharsets.UTF_8);
        return new Welcome(status, reason, resumeFrom, window, stride);
    }

    private static ByteBuffer checked(ByteBuffer src) {
        ByteBuffer b = src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < 8) {
            throw new IllegalArgumentException("a seqlink UCX handshake message of " + b.remaining() + " B is too short");
        }
        int magic = b.getInt();
        int version = b.getInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format("not a seqlink UCX handshake (magic 0x%08x, expected 0x%08x): "
                    + "is the peer another program, or a big-endian host?", magic, MAGIC));
        }
        if (version != VERSION) {
            throw new IllegalArgumentException("the peer speaks seqlink UCX protocol " + version + ", this build speaks "
                    + VERSION + ": run the same seqlink-ucx version on both hosts");
        }
        return b;
    }

    private static void putBytes(ByteBuffer b, byte[] bytes) {
        b.putInt(bytes.length).put(bytes);
    }

    private static byte[] getBytes(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("a seqlink UCX handshake field claims " + n + " B, " + b.remaining() + " B left");
        }
        byte[] bytes = new byte[n];
        b.get(bytes);
        return bytes;
    }
}

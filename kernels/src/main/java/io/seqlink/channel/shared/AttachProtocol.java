package io.seqlink.channel.shared;

import io.seqlink.security.PeerChallenge;
import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The attach handshake's messages on the socket, each a 4-byte big-endian length (at most {@link #MAX_MESSAGE}) and
 * that many bytes, the first naming the message:
 *
 * <pre>
 *   HELLO      magic, protocol version, channel name (2-byte length, UTF-8), initiator nonce
 *   CHALLENGE  epoch, responder nonce, the responder's proof
 *   PROOF      the initiator's proof
 *   ACCEPTED   seat, epoch, starts after, layout version, slots, slot bytes, stride, max batch, seats, region bytes,
 *              stall timeout and heartbeat (ns)
 *   REFUSED    the reason (UTF-8)
 * </pre>
 *
 * A message that is not exactly what its type says (a length out of bounds, short or trailing bytes, a bad name) is a
 * {@link BadMessage}. Stateless; blocking reads and writes on a channel one thread uses at a time.
 */
final class AttachProtocol {

    static final int MAX_MESSAGE = 1024;
    static final byte HELLO = 1;
    static final byte CHALLENGE = 2;
    static final byte PROOF = 3;
    static final byte ACCEPTED = 4;
    static final byte REFUSED = 5;

    private AttachProtocol() {
    }

    /** A message that breaks the protocol; its text says how, for the refusal and the log. */
    static final class BadMessage extends IOException {
        private static final long serialVersionUID = 1L;

        BadMessage(String message) {
            super(message);
        }
    }

    record Hello(int protocol, String channel, byte[] nonce) {
    }

    record Challenge(long epoch, byte[] nonce, byte[] proof) {
    }

    record Accepted(int seat, long epoch, long startsAfter, int layout, int slots, long slotBytes, long stride, int maxBatch,
            int seats, long regionBytes, long stallNanos, long heartbeatNanos) {
    }

    // ---- framing -------------------------------------------------------------------------------------------------

    static void send(SocketChannel ch, ByteBuffer body) throws IOException {
        body.flip();
        ByteBuffer framed = ByteBuffer.allocate(4 + body.remaining()).putInt(body.remaining()).put(body).flip();
        while (framed.hasRemaining()) {
            ch.write(framed);
        }
    }

    /** The next message's body, its type byte first; {@link EOFException} when the peer closed. */
    static ByteBuffer receive(SocketChannel ch) throws IOException {
        ByteBuffer len = readFully(ch, ByteBuffer.allocate(4));
        int n = len.getInt(0);
        if (n < 1 || n > MAX_MESSAGE) {
            throw new BadMessage("a message of " + n + " bytes (1 to " + MAX_MESSAGE + " allowed)");
        }
        return readFully(ch, ByteBuffer.allocate(n)).flip();
    }

    private static ByteBuffer readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("the peer closed the connection");
            }
        }
        return b;
    }

    /** The type byte of {@code m}, checked to be {@code expected}; a REFUSED message is returned as such for the caller. */
    static byte type(ByteBuffer m, byte expected) throws BadMessage {
        byte t = m.get();
        if (t != expected && t != REFUSED) {
            throw new BadMessage("message type " + t + " where " + expected + " was due");
        }
        return t;
    }

    // ---- messages ------------------------------------------------------------------------------------------------

    static ByteBuffer hello(String channel, byte[] nonce) {
        byte[] name = channel.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + 8 + 4 + 2 + name.length + nonce.length).put(HELLO).putLong(SharedLayout.MAGIC)
                .putInt(SharedLayout.PROTOCOL_VERSION).putShort((short) name.length).put(name).put(nonce);
    }

    /** Reads a HELLO after its type byte; the magic is checked here, the version and name by the caller. */
    static Hello readHello(ByteBuffer m) throws BadMessage {
        try {
            long magic = m.getLong();
            if (magic != SharedLayout.MAGIC) {
                throw new BadMessage("not a seqlink attach (magic 0x" + Long.toHexString(magic) + ")");
            }
            int protocol = m.getInt();
            int nameLength = m.getShort() & 0xFFFF;
            if (nameLength > 4 * io.seqlink.channel.ChannelSpec.MAX_NAME_LENGTH) {
                throw new BadMessage("a channel name of " + nameLength + " bytes");
            }
            byte[] name = new byte[nameLength];
            m.get(name);
            byte[] nonce = new byte[PeerChallenge.NONCE_BYTES];
            m.get(nonce);
            end(m);
            return new Hello(protocol, utf8(name), nonce);
        } catch (BufferUnderflowException e) {
            throw new BadMessage("a HELLO cut short");
        }
    }

    static ByteBuffer challenge(long epoch, byte[] nonce, byte[] proof) {
        return ByteBuffer.allocate(1 + 8 + nonce.length + proof.length).put(CHALLENGE).putLong(epoch).put(nonce).put(proof);
    }

    static Challenge readChallenge(ByteBuffer m) throws BadMessage {
        try {
            long epoch = m.getLong();
            byte[] nonce = new byte[PeerChallenge.NONCE_BYTES];
            m.get(nonce);
            byte[] proof = new byte[PeerChallenge.PROOF_BYTES];
            m.get(proof);
            end(m);
            return new Challenge(epoch, nonce, proof);
        } catch (BufferUnderflowException e) {
            throw new BadMessage("a CHALLENGE cut short");
        }
    }

    static ByteBuffer proof(byte[] proof) {
        return ByteBuffer.allocate(1 + proof.length).put(PROOF).put(proof);
    }

    static byte[] readProof(ByteBuffer m) throws BadMessage {
        if (m.remaining() != PeerChallenge.PROOF_BYTES) {
            throw new BadMessage("a PROOF of " + m.remaining() + " bytes, not " + PeerChallenge.PROOF_BYTES);
        }
        byte[] proof = new byte[PeerChallenge.PROOF_BYTES];
        m.get(proof);
        return proof;
    }

    static ByteBuffer accepted(Accepted a) {
        return ByteBuffer.allocate(1 + 4 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 8 + 8).put(ACCEPTED).putInt(a.seat()).putLong(a.epoch())
                .putLong(a.startsAfter()).putInt(a.layout()).putInt(a.slots()).putLong(a.slotBytes()).putLong(a.stride())
                .putInt(a.maxBatch()).putInt(a.seats()).putLong(a.regionBytes()).putLong(a.stallNanos()).putLong(a.heartbeatNanos());
    }

    static Accepted readAccepted(ByteBuffer m) throws BadMessage {
        try {
            Accepted a = new Accepted(m.getInt(), m.getLong(), m.getLong(), m.getInt(), m.getInt(), m.getLong(), m.getLong(),
                    m.getInt(), m.getInt(), m.getLong(), m.getLong(), m.getLong());
            end(m);
            return a;
        } catch (BufferUnderflowException e) {
            throw new BadMessage("an ACCEPTED cut short");
        }
    }

    static ByteBuffer refused(String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(text.length, MAX_MESSAGE - 1);
        return ByteBuffer.allocate(1 + n).put(REFUSED).put(text, 0, n);
    }

    static String readRefused(ByteBuffer m) {
        byte[] text = new byte[m.remaining()];
        m.get(text);
        return new String(text, StandardCharsets.UTF_8);
    }

    private static void end(ByteBuffer m) throws BadMessage {
        if (m.hasRemaining()) {
            throw new BadMessage(m.remaining() + " bytes past the message's end");
        }
    }

    private static String utf8(byte[] bytes) throws BadMessage {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new BadMessage("a channel name that is not UTF-8");
        }
    }
}

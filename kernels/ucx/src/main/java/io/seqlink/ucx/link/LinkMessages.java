package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpEndpoint;

/**
 * The active messages of a connected link, after the {@link Handshake}. Every header is four
 * little-endian words, the first the connection number the sender chose for this connection (in its
 * HELLO). The sender's messages carry UCX's reply endpoint: the receiver takes them only from the
 * endpoint that completed the handshake, with its connection number, so nothing of a closed endpoint
 * ever touches the state of the next one, and nothing of another endpoint touches the link at all.
 *
 * <pre>
 *  id       direction            header words 1..3                  data
 *  FRAMES   sender -> receiver   first, last (link sequences), bytes  slots first..last as laid out in the ring
 *  STATUS   receiver -> sender   received, consumed (the credit), beat  -
 *  BEAT     sender -> receiver   beat, staged                        -
 *  BYE      either way           reason (CLOSING, RECONNECTING)      -
 * </pre>
 *
 * No remote memory access is used: UCX 1.13 emulates RMA over TCP in software, and its put handler
 * aborts the process when the endpoint dies with puts in flight. With active messages a frame's bytes
 * are in the receiver's memory only when the receiver's own UCX call put them there (a copy in the
 * receive callback, or a rendezvous receive that completed), so a closing endpoint can only end a
 * receive, never write into a ring behind the receiver's back.
 */
final class LinkMessages {

    static final int FRAMES = 13;
    static final int STATUS = 14;
    static final int BEAT = 15;
    static final int BYE = 16;

    static final int HEADER_BYTES = 32;

    /** BYE reasons. */
    static final long BYE_CLOSING = 1;
    static final long BYE_RECONNECTING = 2;

    private LinkMessages() {
    }

    /**
     * Sends a header-only message (eager: a few words, copied by UCX when the call is made) from the
     * next free buffer of {@code headers}; returns false when none is free (the caller sends later).
     */
    static boolean sendControl(UcpEndpoint ep, MessageHeaders headers, int id, long connection, long w1, long w2, long w3) {
        int slot = headers.claim();
        if (slot < 0) {
            return false;
        }
        headers.put(slot, connection, w1, w2, w3);
        // no callback: JUCX logs every failed request that has one at ERROR; a failure here surfaces as an endpoint error
        // REPLY: the receiver names the endpoint a message came on, and takes a sender's only from the one that authenticated
        headers.sent(slot, ep.sendAmNonBlocking(id, headers.address(slot), HEADER_BYTES, 0, 0,
                UcpConstants.UCP_AM_SEND_FLAG_EAGER | UcpConstants.UCP_AM_SEND_FLAG_REPLY, null));
        return true;
    }

    /**
     * A received header as a little-endian view, validated for message {@code id} ({@link #validate}):
     * a header of another size, or one whose fields are out of range, throws
     * {@link MalformedMessageException}.
     */
    static ByteBuffer header(int id, long address, long size) {
        if (size != HEADER_BYTES) {
            throw new MalformedMessageException("a seqlink UCX link message header of " + size + " B, expected "
                    + HEADER_BYTES + " B: is the peer another program?");
        }
        ByteBuffer h = UcxUtils.getByteBufferView(address, HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        validate(id, h);
        return h;
    }

    /**
     * Checks the ranges of a header of message {@code id} that the protocol fixes, whatever the link's
     * state: throws {@link MalformedMessageException} for a header shorter than {@link #HEADER_BYTES},
     * an unknown id, FRAMES of no frame or more than a window, fewer bytes than a slot header, a negative
     * BEAT, a BYE of an unknown reason, or a STATUS whose credit exceeds what it received. Ranges that
     * depend on the link (the landing ring's window, what was published) are {@link LandingRing}'s.
     * Pure; any thread.
     */
    static void validate(int id, ByteBuffer h) {
        if (h.remaining() < HEADER_BYTES) {
            throw new MalformedMessageException("a link message header of " + h.remaining() + " B, expected " + HEADER_BYTES);
        }
        int at = h.position();
        long w1 = h.getLong(at + 8);
        long w2 = h.getLong(at + 16);
        long w3 = h.getLong(at + 24);
        switch (id) {
            case FRAMES -> {
                if (w1 < 1 || w2 < w1 || w2 - w1 >= io.seqlink.ucx.BridgeSettings.MAX_WINDOW || w3 < LinkLayout.HEADER
                        || w3 > Integer.MAX_VALUE) {
                    throw new MalformedMessageException("FRAMES " + w1 + ".." + w2 + " of " + w3 + " B");
                }
            }
            case BEAT -> {
                if (w2 < 0) {
                    throw new MalformedMessageException("a BEAT announcing frame " + w2);
                }
            }
            case BYE -> {
                if (w1 != BYE_CLOSING && w1 != BYE_RECONNECTING) {
                    throw new MalformedMessageException("a BYE of reason " + w1);
                }
            }
            case STATUS -> {
                if (w1 < 0 || w2 < 0 || w2 > w1) {
                    throw new MalformedMessageException("a STATUS of received " + w1 + ", consumed " + w2);
                }
            }
            default -> throw new MalformedMessageException("a link message of id " + id);
        }
    }
}

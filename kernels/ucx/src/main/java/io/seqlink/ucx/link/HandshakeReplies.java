package io.seqlink.ucx.link;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * The receiver's CHALLENGE and WELCOME (or refusal) messages in flight: each buffer stays reachable until UCX is
 * done reading it. Owned by the link thread.
 */
final class HandshakeReplies {

    private record Reply(ByteBuffer message, UcpRequest send) {
    }

    private final List<Reply> inFlight = new ArrayList<>();

    void send(UcpEndpoint ep, Handshake.Welcome welcome) {
        send(ep, Handshake.WELCOME_ID, Handshake.encode(welcome));
    }

    void send(UcpEndpoint ep, Handshake.Challenge challenge) {
        send(ep, Handshake.CHALLENGE_ID, Handshake.encode(challenge));
    }

    private void send(UcpEndpoint ep, int id, ByteBuffer message) {
        // no callback: a failed send (the sender gone) shows as that endpoint's error, not as a JUCX error line
        inFlight.add(new Reply(message, ep.sendAmNonBlocking(id, 0, 0, UcxUtils.getAddress(message), message.remaining(), 0,
                null)));
    }

    /** Forgets the replies UCX has finished with. */
    void prune() {
        if (!inFlight.isEmpty()) {
            inFlight.removeIf(r -> r.send().isCompleted());
        }
    }
}

package io.seqlink.channel.shared;

import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.ChannelAttachException;
import io.seqlink.security.PeerChallenge;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The consumer's side of the attach handshake ({@link AttachProtocol}, {@link PeerChallenge} as initiator) on a
 * connected socket: it checks the producer's proof before it proves its own, so a process that does not know the
 * secret learns nothing it could replay. Runs on the attaching thread; the caller bounds it by closing the socket.
 */
final class AttachClient {

    private AttachClient() {
    }

    /** The producer's ACCEPTED, or {@link ChannelAttachException} naming why not. */
    static AttachProtocol.Accepted handshake(SocketChannel c, AttachSpec spec) throws IOException {
        PeerChallenge challenge = new PeerChallenge(spec.secret());
        byte[] nonce = PeerChallenge.newNonce();
        AttachProtocol.send(c, AttachProtocol.hello(spec.name(), nonce));
        ByteBuffer m = AttachProtocol.receive(c);
        if (AttachProtocol.type(m, AttachProtocol.CHALLENGE) == AttachProtocol.REFUSED) {
            throw refused(spec, AttachProtocol.readRefused(m));
        }
        AttachProtocol.Challenge ch = AttachProtocol.readChallenge(m);
        if (!challenge.verify(ch.proof(), PeerChallenge.Role.RESPONDER, spec.name(), ch.epoch(), nonce, ch.nonce())) {
            AttachProtocol.send(c, AttachProtocol.refused("the producer's proof does not verify"));
            throw new ChannelAttachException(ChannelAttachException.Reason.PRODUCER_NOT_PROVEN, "attach to channel '" + spec.name()
                    + "' refused by this process: the producer at "
                    + SharedDirectory.socket(spec.directory(), spec.name()) + " could not prove the channel's secret (a "
                    + "different secret, or not a seqlink producer); check AttachSpec.secret against the producer's ChannelShare.secret", null);
        }
        AttachProtocol.send(c, AttachProtocol.proof(challenge.proof(PeerChallenge.Role.INITIATOR, spec.name(), ch.epoch(), nonce,
                ch.nonce())));
        m = AttachProtocol.receive(c);
        if (AttachProtocol.type(m, AttachProtocol.ACCEPTED) == AttachProtocol.REFUSED) {
            throw refused(spec, AttachProtocol.readRefused(m));
        }
        AttachProtocol.Accepted a = AttachProtocol.readAccepted(m);
        if (a.epoch() != ch.epoch()) {
            throw new ChannelAttachException("attach to channel '" + spec.name() + "': the producer accepted epoch " + a.epoch()
                    + " after challenging for epoch " + ch.epoch());
        }
        return a;
    }

    private static ChannelAttachException refused(AttachSpec spec, String reason) {
        return new ChannelAttachException(ChannelAttachException.Reason.REFUSED, "attach to channel '" + spec.name()
                + "' refused by its producer: " + reason, null);
    }
}

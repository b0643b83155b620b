package io.seqlink.channel.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.AttachSpec;
import io.seqlink.channel.AttachedChannel;
import io.seqlink.channel.ChannelAttachException;
import io.seqlink.channel.ChannelShare;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.PublishChannel;
import io.seqlink.error.SeqlinkException;
import io.seqlink.security.PeerChallenge;
import io.seqlink.security.SharedSecret;
import io.seqlink.topology.Transport;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handshakes a hostile or broken peer makes (a wrong secret on either side, a replayed proof, garbage, a wrong
 * version or name, silence) are refused with a clear reason and change nothing: no seat is taken, so the producer
 * goes on publishing with nobody to wait for, and a proper attach afterwards gets the first seat. And the share's
 * files: owner-only, in an owner-only directory of this user's, one live producer per name.
 */
class HostileAttachTest {

    static final SharedSecret SECRET = SharedSecret.of("the channel's own secret, 32 bytes", "test.secret");
    static final int SLOTS = 16;

    @TempDir
    Path tmp;
    Path dir;
    SeqlinkRuntime producer;
    SeqlinkRuntime consumer;
    PublishChannel channel;

    @BeforeEach
    void share() {
        dir = tmp.resolve("share");
        producer = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
        consumer = SeqlinkRuntime.builder().emulated(EmulatedTopology.allNvlink(2)).open();
        channel = producer.openChannel(ChannelSpec.builder("frames").producer(0).slots(SLOTS).slotBytes(64)
                .share(new ChannelShare(dir, SECRET, 2, null, Duration.ofSeconds(1))).build());
        producer.start();
    }

    @AfterEach
    void close() {
        consumer.close();
        producer.close();
    }

    SocketChannel connect() throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve("frames.sock")));
    }

    static String refusal(SocketChannel c) throws IOException {
        ByteBuffer m = AttachProtocol.receive(c);
        assertThat(m.get()).as("a REFUSED message").isEqualTo(AttachProtocol.REFUSED);
        return AttachProtocol.readRefused(m);
    }

    static void sendRaw(SocketChannel c, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            c.write(bytes);
        }
    }

    /** No seat was taken: the producer publishes many laps of its ring with nobody to wait for; then a proper attach gets seat 0. */
    void assertNothingChanged() {
        for (int i = 0; i < 5 * SLOTS; i++) {
            assertThat(channel.claim(30, TimeUnit.SECONDS)).as("claim " + i + " with no consumer attached").isPositive();
            channel.commit(8);
            channel.publish();
        }
        try (AttachedChannel in = consumer.attachChannel(AttachSpec.of("frames", dir, SECRET))) {
            assertThat(in.seat()).isZero();
            assertThat(in.startsAfter()).isEqualTo(channel.snapshot().published());
            assertThat(in.consumer().transport()).isEqualTo(Transport.SHARED_MEMORY);
        }
    }

    @Test
    void aConsumerWithTheWrongSecretIsRefusedByItsOwnCheckOfTheProducersProof() {
        SharedSecret wrong = SharedSecret.of("not the channel's secret at all", "test.wrong");
        assertThatThrownBy(() -> consumer.attachChannel(AttachSpec.of("frames", dir, wrong)))
                .isInstanceOf(ChannelAttachException.class).hasMessageContaining("could not prove the channel's secret")
                .hasMessageContaining("AttachSpec.secret");
        assertNothingChanged();
    }

    @Test
    void aProofThatDoesNotVerifyIsRefused() throws IOException {
        try (SocketChannel c = connect()) {
            AttachProtocol.send(c, AttachProtocol.hello("frames", PeerChallenge.newNonce()));
            ByteBuffer m = AttachProtocol.receive(c);
            assertThat(m.get()).isEqualTo(AttachProtocol.CHALLENGE);
            byte[] forged = new byte[PeerChallenge.PROOF_BYTES];
            new Random(1).nextBytes(forged);
            AttachProtocol.send(c, AttachProtocol.proof(forged));
            assertThat(refusal(c)).contains("does not verify");
        }
        assertNothingChanged();
    }

    @Test
    void aReplayedHandshakeIsRefused() throws Exception {
        PeerChallenge challenge = new PeerChallenge(SECRET);
        byte[] nonce = PeerChallenge.newNonce();
        ByteBuffer hello = AttachProtocol.hello("frames", nonce);
        ByteBuffer recordedProof;
        try (SocketChannel honest = connect()) { // a proper handshake, recorded
            AttachProtocol.send(honest, hello.duplicate());
            ByteBuffer m = AttachProtocol.receive(honest);
            assertThat(m.get()).isEqualTo(AttachProtocol.CHALLENGE);
            AttachProtocol.Challenge ch = AttachProtocol.readChallenge(m);
            recordedProof = AttachProtocol.proof(challenge.proof(PeerChallenge.Role.INITIATOR, "frames", ch.epoch(), nonce, ch.nonce()));
            AttachProtocol.send(honest, recordedProof.duplicate());
            m = AttachProtocol.receive(honest);
            assertThat(m.get()).isEqualTo(AttachProtocol.ACCEPTED);
        }
        awaitSeatsFree();
        try (SocketChannel replay = connect()) { // the same bytes again: the producer's nonce and epoch are new
            AttachProtocol.send(replay, hello.duplicate());
            ByteBuffer m = AttachProtocol.receive(replay);
            assertThat(m.get()).isEqualTo(AttachProtocol.CHALLENGE);
            AttachProtocol.send(replay, recordedProof.duplicate());
            assertThat(refusal(replay)).contains("does not verify").contains("replayed");
        }
        assertNothingChanged();
    }

    @Test
    void garbageAWrongVersionOrNameAndSilenceAreRefusedOrCutOff() throws Exception {
        try (SocketChannel c = connect()) { // a length past the bound
            sendRaw(c, ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).flip());
            assertThat(refusal(c)).contains("malformed handshake").contains("bytes");
        }
        try (SocketChannel c = connect()) { // random bytes of a plausible length
            byte[] junk = new byte[40];
            new Random(7).nextBytes(junk);
            junk[0] = AttachProtocol.HELLO;
            sendRaw(c, ByteBuffer.allocate(4 + junk.length).putInt(junk.length).put(junk).flip());
            assertThat(refusal(c)).contains("malformed handshake");
        }
        try (SocketChannel c = connect()) { // another protocol version
            ByteBuffer hello = AttachProtocol.hello("frames", PeerChallenge.newNonce());
            hello.putInt(9, 99);
            AttachProtocol.send(c, hello);
            assertThat(refusal(c)).contains("protocol version 99");
        }
        try (SocketChannel c = connect()) { // another channel
            AttachProtocol.send(c, AttachProtocol.hello("other", PeerChallenge.newNonce()));
            assertThat(refusal(c)).contains("serves channel 'frames', not 'other'");
        }
        try (SocketChannel c = connect()) { // a message out of turn
            AttachProtocol.send(c, AttachProtocol.proof(new byte[PeerChallenge.PROOF_BYTES]));
            assertThat(refusal(c)).contains("malformed handshake");
        }
        try (SocketChannel c = connect()) { // cut short, then gone
            sendRaw(c, ByteBuffer.allocate(8).putInt(40).putInt(0).flip());
        }
        try (SocketChannel silent = connect()) { // says nothing: cut off after the handshake timeout (1 s here)
            ByteBuffer one = ByteBuffer.allocate(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int read = 0;
            while (read >= 0 && System.nanoTime() < deadline) {
                read = silent.read(one.clear());
            }
            assertThat(read).as("the producer closed the silent connection").isEqualTo(-1);
        }
        assertNothingChanged();
    }

    @Test
    void theFilesAreOwnerOnlyAndASecondLiveProducerOfTheNameIsRefused() throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("frames.shm")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("frames.sock")))).isEqualTo("rw-------");
        assertThatThrownBy(() -> consumer.openChannel(ChannelSpec.builder("frames").producer(0).slots(SLOTS).slotBytes(64)
                .share(ChannelShare.of(dir, SECRET)).build()))
                .isInstanceOf(SeqlinkException.class).hasMessageContaining("already shared by a live process");
        assertNothingChanged();
    }

    @Test
    void aDirectoryOthersCanReachIsRefusedNamingTheSetting() throws IOException {
        Path open = tmp.resolve("open");
        Files.createDirectory(open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> consumer.openChannel(ChannelSpec.builder("wide").producer(0).slots(SLOTS).slotBytes(64)
                .share(ChannelShare.of(open, SECRET)).build()))
                .isInstanceOf(SeqlinkException.class).hasMessageContaining("ChannelShare.directory")
                .hasMessageContaining("chmod 700");
        assertThat(consumer.channels()).isEmpty();
        assertThatThrownBy(() -> consumer.attachChannel(AttachSpec.of("wide", open, SECRET)))
                .isInstanceOf(ChannelAttachException.class).hasMessageContaining("AttachSpec.directory");
        assertThatThrownBy(() -> consumer.attachChannel(AttachSpec.of("absent", dir, SECRET)))
                .isInstanceOf(ChannelAttachException.class).hasMessageContaining("no producer shares it");
    }

    @Test
    void theSharedMemoryTransportCannotBeForcedAndASharedChannelIsLossless() {
        assertThatThrownBy(() -> consumer.openChannel(ChannelSpec.builder("forced").producer(0).consumers(1)
                .transport(Transport.SHARED_MEMORY).build()))
                .isInstanceOf(InvalidChannelSpecException.class).hasMessageContaining("transport shared-memory");
        assertThatThrownBy(() -> consumer.openChannel(ChannelSpec.builder("latest").producer(0)
                .delivery(io.seqlink.channel.Delivery.LATEST).share(ChannelShare.of(dir, SECRET)).build()))
                .isInstanceOf(InvalidChannelSpecException.class).hasMessageContaining("must be lossless");
    }

    /** Waits until the producer dropped the seats of closed connections (its heartbeat thread notices within a period). */
    void awaitSeatsFree() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (liveSeats() > 0) {
            assertThat(System.nanoTime()).as("seats freed within 60 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** Live seats, read from the region file as another process would. */
    int liveSeats() {
        try {
            SharedLayout layout = new SharedLayout(io.seqlink.layout.RingGeometry.of(SLOTS, 64), channel.spec().maxPublishBatch(), 2);
            SharedRegion r = SharedRegion.open(dir.resolve("frames.shm"), layout.regionBytes());
            int n = 0;
            for (int i = 0; i < 2; i++) {
                n += r.getVolatile(layout.seatLine(i) + SharedLayout.S_LIVE) != 0 ? 1 : 0;
            }
            return n;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}

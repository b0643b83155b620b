package io.seqlink.ucx.process;

import io.seqlink.security.PeerChallenge;
import io.seqlink.security.SharedSecret;
import io.seqlink.ucx.link.Handshake;
import io.seqlink.ucx.link.LinkLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * A hostile or broken peer of a receiving bridge, in a process of its own (an abort inside UCX ends this
 * process, not the test's): a plain JUCX client that uses seqlink's message encoders only to build what
 * it sends. It prints {@code RESULT ...} lines and {@code DONE} at the end.
 *
 * <pre>
 *   garbage HOST:PORT SECRET          malformed messages of every type, each on a fresh connection before any
 *                                     handshake; then, authenticated with SECRET, malformed ones after the handshake
 *   replay HOST:PORT SECRET           a handshake recorded, then replayed (HELLO and PROOF) on a new connection
 *   hijack HOST:PORT EPOCH ROUNDS     no secret: HELLOs claiming EPOCH, and FRAMES/BEAT/BYE carrying that sender's
 *                                     connection numbers from an endpoint of its own
 *   overflow HOST:PORT SECRET         authenticated, one FRAMES whose slot length field exceeds the slot
 *   fuzz HOST:PORT SEED COUNT         COUNT random and mutated messages of every type, a new connection every few
 * </pre>
 */
public final class HostilePeer {

    private static final String CHANNEL = "frames";
    private static final int HEADER = 32;

    private final UcpWorker worker;
    private final InetSocketAddress target;
    private final List<ByteBuffer> keep = new ArrayList<>();
    private @Nullable UcpEndpoint ep;
    private volatile @Nullable String error;
    private volatile @Nullable ByteBuffer welcome;
    private volatile @Nullable ByteBuffer challenge;
    private int connections;
    private int messages;

    private HostilePeer(UcpWorker worker, InetSocketAddress target) {
        this.worker = worker;
        this.target = target;
        worker.setAmRecvHandler(Handshake.WELCOME_ID, (h, hs, data, replyEp) -> {
            welcome = copy(data.isDataValid() ? data.getDataAddress() : 0, data.isDataValid() ? data.getLength() : 0);
            return UcsConstants.STATUS.UCS_OK;
        });
        worker.setAmRecvHandler(Handshake.CHALLENGE_ID, (h, hs, data, replyEp) -> {
            challenge = copy(data.isDataValid() ? data.getDataAddress() : 0, data.isDataValid() ? data.getLength() : 0);
            return UcsConstants.STATUS.UCS_OK;
        });
        worker.setAmRecvHandler(14, (h, hs, data, replyEp) -> UcsConstants.STATUS.UCS_OK); // STATUS
        worker.setAmRecvHandler(16, (h, hs, data, replyEp) -> UcsConstants.STATUS.UCS_OK); // BYE
    }

    public static void main(String[] args) throws Exception {
        String[] hostPort = args[1].split(":");
        InetSocketAddress target = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        try (UcpContext context = new UcpContext(new UcpParams().requestAmFeature());
                UcpWorker worker = context.newWorker(new UcpWorkerParams())) {
            HostilePeer peer = new HostilePeer(worker, target);
            switch (args[0]) {
                case "garbage" -> peer.garbage(SharedSecret.of(args[2], "secret"));
                case "replay" -> peer.replay(SharedSecret.of(args[2], "secret"));
                case "hijack" -> peer.hijack(Long.parseLong(args[2]), Integer.parseInt(args[3]));
                case "overflow" -> peer.overflow(SharedSecret.of(args[2], "secret"));
                case "fuzz" -> peer.fuzz(Long.parseLong(args[2]), Integer.parseInt(args[3]));
                default -> throw new IllegalArgumentException(args[0]);
            }
            peer.close();
            System.out.println("DONE connections=" + peer.connections + " messages=" + peer.messages);
        }
    }

    // ---- scenarios

    private void garbage(SharedSecret secret) {
        long epoch = 0x5eed_0000_0000_0001L;
        ByteBuffer valid = hello(epoch, epoch + 1, 1, 0, PeerChallenge.newNonce());
        List<Object[]> before = new ArrayList<>();
        before.add(new Object[] { "hello-4-bytes", Handshake.HELLO_ID, empty(), slice(valid, 4) });
        before.add(new Object[] { "hello-empty", Handshake.HELLO_ID, empty(), empty() });
        before.add(new Object[] { "hello-wrong-magic", Handshake.HELLO_ID, empty(), patchInt(valid, 0, 0x12345678) });
        before.add(new Object[] { "hello-wrong-version", Handshake.HELLO_ID, empty(), patchInt(valid, 4, 99) });
        before.add(new Object[] { "hello-2gb-name", Handshake.HELLO_ID, empty(), patchInt(valid, 52, Integer.MAX_VALUE) });
        before.add(new Object[] { "hello-negative-name", Handshake.HELLO_ID, empty(), patchInt(valid, 52, -5) });
        before.add(new Object[] { "hello-oldest-0", Handshake.HELLO_ID, empty(), hello(epoch, epoch + 1, 0, 0, new byte[0]) });
        before.add(new Object[] { "hello-epoch-0", Handshake.HELLO_ID, empty(), hello(0, 1, 1, 0, new byte[0]) });
        before.add(new Object[] { "hello-window-0", Handshake.HELLO_ID, empty(), patchInt(valid, 24, 0) });
        before.add(new Object[] { "hello-truncated", Handshake.HELLO_ID, empty(), slice(valid, valid.remaining() - 3) });
        before.add(new Object[] { "hello-random", Handshake.HELLO_ID, empty(), random(new SplittableRandom(1), 64) });
        before.add(new Object[] { "proof-short", Handshake.PROOF_ID, empty(), random(new SplittableRandom(2), 10) });
        before.add(new Object[] { "proof-unasked", Handshake.PROOF_ID, empty(), Handshake.encode(new Handshake.Proof(epoch + 1,
                new byte[PeerChallenge.PROOF_BYTES])) });
        before.add(new Object[] { "frames-8-byte-header", 13, slice(header(epoch + 1, 1, 1, 64), 8), empty() });
        before.add(new Object[] { "frames-unlinked", 13, header(epoch + 1, 1, 1, 128), slot(1, 16, 128) });
        before.add(new Object[] { "beat-8-byte-header", 15, slice(header(epoch + 1, 1, 0, 0), 8), empty() });
        before.add(new Object[] { "beat-unlinked", 15, header(epoch + 1, 1, 0, 0), empty() });
        before.add(new Object[] { "bye-8-byte-header", 16, slice(header(epoch + 1, 1, 0, 0), 8), empty() });
        before.add(new Object[] { "bye-unlinked", 16, header(epoch + 1, 1, 0, 0), empty() });
        before.add(new Object[] { "status-to-receiver", 14, header(epoch + 1, 5, 5, 1), empty() });
        before.add(new Object[] { "welcome-to-receiver", Handshake.WELCOME_ID, empty(), random(new SplittableRandom(3), 40) });
        before.add(new Object[] { "challenge-to-receiver", Handshake.CHALLENGE_ID, empty(), random(new SplittableRandom(4), 56) });
        for (Object[] m : before) {
            connect();
            send((Integer) m[1], (ByteBuffer) m[2], (ByteBuffer) m[3], true);
            awaitQuietly(() -> error != null, 100);
            System.out.println("RESULT before " + m[0] + " dropped=" + (error != null));
        }
        List<Object[]> after = new ArrayList<>();
        after.add(new Object[] { "frames-8-byte-header", 13, slice(header(0, 1, 1, 64), 8), empty() });
        after.add(new Object[] { "frames-first-0", 13, header(0, 0, 0, 128), slot(0, 16, 128) });
        after.add(new Object[] { "frames-bytes-mismatch", 13, header(0, 1, 1, 4096), slot(1, 16, 128) });
        after.add(new Object[] { "frames-beyond-window", 13, header(0, 1000, 1000, 128), slot(1000, 16, 128) });
        after.add(new Object[] { "frames-slot-overflow", 13, header(0, 1, 1, 128), slot(1, 100_000, 128) });
        after.add(new Object[] { "frames-other-connection", 13, header(-7, 1, 1, 128), slot(1, 16, 128) });
        after.add(new Object[] { "beat-8-byte-header", 15, slice(header(0, 1, 0, 0), 8), empty() });
        after.add(new Object[] { "beat-negative", 15, header(0, 1, -1, 0), empty() });
        after.add(new Object[] { "bye-8-byte-header", 16, slice(header(0, 1, 0, 0), 8), empty() });
        after.add(new Object[] { "bye-reason-99", 16, header(0, 99, 0, 0), empty() });
        after.add(new Object[] { "hello-again", Handshake.HELLO_ID, empty(), hello(epoch, epoch + 1, 1, 0, PeerChallenge.newNonce()) });
        after.add(new Object[] { "proof-again", Handshake.PROOF_ID, empty(), Handshake.encode(new Handshake.Proof(epoch + 1,
                new byte[PeerChallenge.PROOF_BYTES])) });
        PeerChallenge auth = new PeerChallenge(secret);
        long gen = 1;
        for (Object[] m : after) {
            long connection = epoch + (++gen);
            if (!authenticate(auth, epoch, connection).accepted) {
                System.out.println("RESULT after " + m[0] + " not-linked");
                continue;
            }
            ByteBuffer h = (ByteBuffer) m[2];
            if (h.remaining() == HEADER && h.getLong(0) == 0) {
                h.putLong(0, connection);
            } else if (h.remaining() == HEADER && h.getLong(0) == -7) {
                h.putLong(0, connection + 1000);
            }
            send((Integer) m[1], h, (ByteBuffer) m[3], true);
            awaitQuietly(() -> error != null, 3_000);
            System.out.println("RESULT after " + m[0] + " dropped=" + (error != null));
        }
    }

    private void replay(SharedSecret secret) {
        long epoch = 0x5eed_0000_0000_0002L;
        Attempt first = authenticate(new PeerChallenge(secret), epoch, epoch + 1);
        System.out.println("RESULT recorded accepted=" + first.accepted);
        close();
        awaitQuietly(() -> false, 500); // the receiver sees the connection end
        connect();
        send(Handshake.HELLO_ID, empty(), first.hello, true);
        awaitQuietly(() -> challenge != null || welcome != null || error != null, 5_000);
        send(Handshake.PROOF_ID, empty(), first.proof, true);
        awaitQuietly(() -> welcome != null || error != null, 5_000);
        ByteBuffer w = welcome;
        Handshake.Welcome answer = w == null ? null : Handshake.decodeWelcome(w);
        System.out.println("RESULT replayed accepted=" + (answer != null && answer.status() == Handshake.ACCEPTED) + " reason="
                + (answer == null ? "none" : answer.reason().replace(' ', '_')));
    }

    private void hijack(long legitimateEpoch, int rounds) {
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < rounds; round++) {
            connect();
            send(Handshake.HELLO_ID, empty(), hello(legitimateEpoch, legitimateEpoch + 1, 1, 0, new byte[0]), true);
            for (long k = 1; k <= 3; k++) {
                long connection = legitimateEpoch + k;
                long first = 1 + random.nextLong(1 << 17);
                send(13, header(connection, first, first, 128), slot(first, 16, 128), round % 2 == 0);
                send(15, header(connection, 1L << 40, 1L << 40, 0), empty(), true);
                send(16, header(connection, 1, 0, 0), empty(), round % 2 == 1);
            }
            awaitQuietly(() -> false, 20);
        }
    }

    private void overflow(SharedSecret secret) {
        long epoch = 0x5eed_0000_0000_0003L;
        Attempt a = authenticate(new PeerChallenge(secret), epoch, epoch + 1);
        System.out.println("RESULT linked=" + a.accepted);
        if (a.accepted) {
            // one eager frame whose length field claims more than its 128-byte slot holds
            send(13, header(epoch + 1, 1, 1, 128), slot(1, 100_000, 128), true);
            awaitQuietly(() -> error != null, 5_000);
            System.out.println("RESULT dropped=" + (error != null));
        }
    }

    private void fuzz(long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] ids = { Handshake.HELLO_ID, Handshake.PROOF_ID, 13, 14, 15, 16, Handshake.WELCOME_ID, Handshake.CHALLENGE_ID };
        for (int i = 0; i < count; i++) {
            if (ep == null || error != null || i % 8 == 0) {
                connect();
            }
            int id = ids[r.nextInt(ids.length)];
            ByteBuffer header = empty();
            ByteBuffer data;
            if (id == Handshake.HELLO_ID && r.nextBoolean()) {
                data = mutate(r, hello(r.nextLong(), r.nextLong(), 1 + r.nextInt(3), 0,
                        r.nextBoolean() ? PeerChallenge.newNonce() : new byte[0]));
            } else if (id >= 13 && id <= 16) {
                header = r.nextInt(4) == 0 ? random(r, r.nextInt(40)) : mutate(r, header(r.nextLong(), r.nextLong(64), r.nextLong(64),
                        r.nextLong(256)));
                data = random(r, r.nextInt(3) == 0 ? 0 : r.nextInt(300));
            } else {
                data = random(r, r.nextInt(120));
            }
            send(id, header, data, r.nextInt(4) != 0);
            awaitQuietly(() -> false, 1);
        }
    }

    // ---- the client

    private record Attempt(boolean accepted, ByteBuffer hello, ByteBuffer proof) {
    }

    private Attempt authenticate(PeerChallenge auth, long epoch, long connection) {
        connect();
        byte[] nonce = PeerChallenge.newNonce();
        ByteBuffer hello = hello(epoch, connection, 1, 0, nonce);
        send(Handshake.HELLO_ID, empty(), hello, true);
        awaitQuietly(() -> challenge != null || welcome != null || error != null, 5_000);
        ByteBuffer c = challenge;
        if (c == null) {
            return new Attempt(false, hello, empty());
        }
        Handshake.Challenge ch = Handshake.decodeChallenge(c);
        ByteBuffer proof = Handshake.encode(new Handshake.Proof(connection,
                auth.proof(PeerChallenge.Role.INITIATOR, CHANNEL, epoch, nonce, ch.nonce())));
        send(Handshake.PROOF_ID, empty(), proof, true);
        awaitQuietly(() -> welcome != null || error != null, 5_000);
        ByteBuffer w = welcome;
        boolean accepted = w != null && Handshake.decodeWelcome(w).status() == Handshake.ACCEPTED;
        return new Attempt(accepted, hello, proof);
    }

    private void connect() {
        close();
        error = null;
        welcome = null;
        challenge = null;
        connections++;
        ep = worker.newEndpoint(new UcpEndpointParams().setSocketAddress(target).setPeerErrorHandlingMode()
                .setErrorHandler((e, code, message) -> error = message));
        LockSupport.parkNanos(2_000_000); // spaced: UCX 1.13 aborts under thousands of quick connections
    }

    private void close() {
        UcpEndpoint e = ep;
        ep = null;
        if (e != null) {
            try {
                UcpRequest r = e.closeNonBlockingForce();
                awaitQuietly(r::isCompleted, 1_000);
            } catch (RuntimeException ignored) {
                // it failed already
            }
        }
        keep.clear();
    }

    private void send(int id, ByteBuffer header, ByteBuffer data, boolean reply) {
        UcpEndpoint e = ep;
        if (e == null || error != null) {
            return;
        }
        ByteBuffer h = direct(header);
        ByteBuffer d = direct(data);
        try {
            UcpRequest r = e.sendAmNonBlocking(id, h.remaining() == 0 ? 0 : UcxUtils.getAddress(h), h.remaining(),
                    d.remaining() == 0 ? 0 : UcxUtils.getAddress(d), d.remaining(),
                    (reply ? UcpConstants.UCP_AM_SEND_FLAG_REPLY : 0) | (d.remaining() < 4096 ? UcpConstants.UCP_AM_SEND_FLAG_EAGER : 0),
                    null);
            messages++;
            awaitQuietly(() -> r.isCompleted() || error != null, 2_000);
        } catch (RuntimeException ex) {
            error = String.valueOf(ex.getMessage());
        }
    }

    private void awaitQuietly(BooleanSupplier done, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
            try {
                worker.progress();
            } catch (Exception ex) {
                error = String.valueOf(ex.getMessage());
            }
            LockSupport.parkNanos(50_000);
        }
    }

    // ---- messages

    private static ByteBuffer hello(long epoch, long connection, long oldest, long staged, byte[] nonce) {
        ByteBuffer b = Handshake.encode(new Handshake.Hello(CHANNEL, epoch == 0 ? 1 : epoch, connection, 128, 512,
                Math.max(1, oldest), staged, nonce));
        ByteBuffer heap = ByteBuffer.allocate(b.remaining()).order(ByteOrder.LITTLE_ENDIAN).put(b).flip();
        if (epoch == 0) {
            heap.putLong(8, 0);
        }
        if (oldest == 0) {
            heap.putLong(36, 0);
        }
        return heap;
    }

    private static ByteBuffer header(long w0, long w1, long w2, long w3) {
        return ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN).putLong(w0).putLong(w1).putLong(w2).putLong(w3).flip();
    }

    /** One slot of {@code bytes} (header and payload): stamp {@code s}, length field {@code length}. */
    private static ByteBuffer slot(long s, long length, int bytes) {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(LinkLayout.STAMP, s).putLong(LinkLayout.LENGTH, length).putLong(LinkLayout.SOURCE_SEQ, s);
        for (int i = LinkLayout.HEADER; i < bytes; i++) {
            b.put(i, (byte) 0x5a); // never a checksummed test frame
        }
        return b;
    }

    private static ByteBuffer patchInt(ByteBuffer b, int at, int value) {
        ByteBuffer c = copyOf(b);
        c.putInt(at, value);
        return c;
    }

    private static ByteBuffer slice(ByteBuffer b, int n) {
        ByteBuffer c = copyOf(b);
        return c.limit(Math.max(0, n));
    }

    private static ByteBuffer mutate(SplittableRandom r, ByteBuffer b) {
        ByteBuffer c = copyOf(b);
        int flips = 1 + r.nextInt(4);
        for (int i = 0; i < flips && c.limit() > 0; i++) {
            int at = r.nextInt(c.limit());
            c.put(at, (byte) (c.get(at) ^ (1 << r.nextInt(8))));
        }
        if (r.nextInt(4) == 0) {
            c.limit(r.nextInt(c.limit() + 1));
        }
        return c;
    }

    private static ByteBuffer random(SplittableRandom r, int n) {
        byte[] bytes = new byte[n];
        r.nextBytes(bytes);
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer empty() {
        return ByteBuffer.allocate(0);
    }

    private static ByteBuffer copyOf(ByteBuffer b) {
        ByteBuffer src = b.duplicate();
        src.position(0);
        ByteBuffer c = ByteBuffer.allocate(src.limit()).order(ByteOrder.LITTLE_ENDIAN);
        c.put(src).flip();
        return c;
    }

    private ByteBuffer direct(ByteBuffer b) {
        ByteBuffer d = ByteBuffer.allocateDirect(Math.max(1, b.remaining())).order(ByteOrder.LITTLE_ENDIAN);
        d.put(b.duplicate()).flip();
        keep.add(d);
        return d;
    }

    private static ByteBuffer copy(long address, long length) {
        ByteBuffer c = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
        if (length > 0) {
            c.put(UcxUtils.getByteBufferView(address, (int) length)).flip();
        }
        return c;
    }
}

package io.seqlink.ucx.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.security.PeerChallenge;
import io.seqlink.ucx.BridgeSettings;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The decoders of every message a peer can send, as pure functions over bytes (no UCX): for random and
 * mutated valid inputs each returns a message within the protocol's ranges or throws
 * {@link MalformedMessageException}, never anything else. {@code -Dseqlink-test.fuzz-inputs=N} runs N
 * inputs per decoder (default 40,000: 280,000 in all, about a second).
 */
class DecoderFuzzTests {

    private static final int INPUTS = Integer.getInteger("seqlink-test.fuzz-inputs", 40_000);

    @Test
    void helloDecodesWithinItsRangesOrIsRefusedForAnyInput() {
        long[] outcomes = fuzz(1, this::validHello, b -> {
            Handshake.Hello h = Handshake.decodeHello(b);
            assertThat(h.epoch()).isNotZero();
            assertThat(h.window()).isBetween(1, BridgeSettings.MAX_WINDOW);
            assertThat(h.oldest()).isPositive();
            assertThat(h.staged()).isBetween(h.oldest() - 1, h.oldest() - 1 + h.window());
            assertThat(h.slotBytes()).isBetween(0L, Handshake.MAX_SLOT_BYTES);
            assertThat(h.nonce().length).isIn(0, PeerChallenge.NONCE_BYTES);
        });
        assertThat(outcomes[0]).as("some mutated HELLOs still decode").isPositive();
        assertThat(outcomes[1]).as("most are refused").isPositive();
    }

    @Test
    void welcomeChallengeAndProofDecodeWithinTheirRangesOrAreRefusedForAnyInput() {
        fuzz(2, r -> Handshake.encode(new Handshake.Welcome(Handshake.ACCEPTED, "", 1 + r.nextInt(1000), 1 + r.nextInt(64),
                LinkLayout.strideFor(r.nextInt(1 << 20)))), b -> {
                    Handshake.Welcome w = Handshake.decodeWelcome(b);
                    assertThat(w.status()).isIn(Handshake.ACCEPTED, Handshake.REFUSED);
                    if (w.status() == Handshake.ACCEPTED) {
                        assertThat(w.resumeFrom()).isPositive();
                        assertThat(w.window()).isBetween(1, BridgeSettings.MAX_WINDOW);
                        assertThat(w.stride()).isGreaterThanOrEqualTo(LinkLayout.LINE);
                    }
                });
        fuzz(3, r -> Handshake.encode(new Handshake.Challenge(PeerChallenge.newNonce(), new byte[PeerChallenge.PROOF_BYTES])),
                b -> assertThat(Handshake.decodeChallenge(b).nonce()).hasSize(PeerChallenge.NONCE_BYTES));
        fuzz(4, r -> Handshake.encode(new Handshake.Proof(r.nextLong(), new byte[PeerChallenge.PROOF_BYTES])),
                b -> assertThat(Handshake.decodeProof(b).proof()).hasSize(PeerChallenge.PROOF_BYTES));
    }

    @Test
    void linkMessageHeadersOfEveryTypeAreWithinTheirRangesOrRefusedForAnyInput() {
        int[] ids = { LinkMessages.FRAMES, LinkMessages.BEAT, LinkMessages.BYE, LinkMessages.STATUS, 0, 99 };
        for (int id : ids) {
            fuzz(10 + id, r -> header(r.nextLong(), 1 + r.nextInt(100), 1 + r.nextInt(100), r.nextInt(1 << 16)), b -> {
                LinkMessages.validate(id, b);
                assertThat(id).isIn(LinkMessages.FRAMES, LinkMessages.BEAT, LinkMessages.BYE, LinkMessages.STATUS);
                if (id == LinkMessages.FRAMES) {
                    assertThat(b.getLong(8)).isPositive();
                    assertThat(b.getLong(16)).isGreaterThanOrEqualTo(b.getLong(8));
                    assertThat(b.getLong(24)).isGreaterThanOrEqualTo(LinkLayout.HEADER);
                }
                if (id == LinkMessages.BYE) {
                    assertThat(b.getLong(8)).isIn(LinkMessages.BYE_CLOSING, LinkMessages.BYE_RECONNECTING);
                }
            });
        }
    }

    @Test
    void theOpeningsThatKilledTheBridgeAreRefusedWithAMessage() {
        ByteBuffer valid = validHello(new SplittableRandom(5));
        assertRefused(() -> Handshake.decodeHello(valid.duplicate().limit(4)), "too short");
        assertRefused(() -> Handshake.decodeHello(patch(valid, 0, 0x12345678)), "not a seqlink UCX handshake");
        assertRefused(() -> Handshake.decodeHello(patch(valid, 4, 1)), "protocol 1");
        assertRefused(() -> Handshake.decodeHello(patch(valid, 52, Integer.MAX_VALUE)), "channel name claims 2147483647 B");
        ByteBuffer oldestZero = copy(valid);
        oldestZero.putLong(36, 0);
        assertRefused(() -> Handshake.decodeHello(oldestZero), "the oldest is at least 1");
        assertRefused(() -> LinkMessages.validate(LinkMessages.BEAT, header(1, 2, 3, 4).limit(8)), "header of 8 B");
        assertRefused(() -> LinkMessages.validate(LinkMessages.FRAMES, header(1, 0, 0, 64)), "FRAMES 0..0");
        assertRefused(() -> LinkMessages.validate(LinkMessages.BYE, header(1, 7, 0, 0)), "a BYE of reason 7");
    }

    /**
     * {@link #INPUTS} inputs for {@code decoder}: a third random bytes, the rest {@code valid} ones mutated
     * (bytes flipped, truncated, extended, fields overwritten with extreme values). Returns {decoded, refused}.
     */
    private static long[] fuzz(long seed, java.util.function.Function<SplittableRandom, ByteBuffer> valid,
            Consumer<ByteBuffer> decoder) {
        SplittableRandom r = new SplittableRandom(seed);
        long decoded = 0;
        long refused = 0;
        for (int i = 0; i < INPUTS; i++) {
            ByteBuffer input = i % 3 == 0 ? random(r) : mutate(r, valid.apply(r));
            try {
                decoder.accept(input.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN));
                decoded++;
            } catch (MalformedMessageException expected) {
                refused++;
            }
        }
        return new long[] { decoded, refused };
    }

    private ByteBuffer validHello(SplittableRandom r) {
        int window = 1 + r.nextInt(256);
        long oldest = 1 + r.nextInt(1 << 20);
        byte[] nonce = r.nextBoolean() ? PeerChallenge.newNonce() : new byte[0];
        return Handshake.encode(new Handshake.Hello("frames", r.nextLong() | 1, r.nextLong(), window, r.nextInt(1 << 20), oldest,
                oldest - 1 + r.nextInt(window + 1), nonce));
    }

    private static final long[] EXTREMES = { 0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE,
        0xffff_ffffL, 1L << 31, 1L << 40 };

    private static ByteBuffer mutate(SplittableRandom r, ByteBuffer b) {
        ByteBuffer c = copy(b);
        switch (r.nextInt(5)) {
            case 0 -> { // bits flipped
                for (int n = 1 + r.nextInt(4); n > 0 && c.limit() > 0; n--) {
                    int at = r.nextInt(c.limit());
                    c.put(at, (byte) (c.get(at) ^ (1 << r.nextInt(8))));
                }
            }
            case 1 -> c.limit(r.nextInt(c.limit() + 1)); // truncated
            case 2 -> { // extended
                ByteBuffer longer = ByteBuffer.allocate(c.limit() + 1 + r.nextInt(64)).order(ByteOrder.LITTLE_ENDIAN);
                longer.put(c);
                while (longer.hasRemaining()) {
                    longer.put((byte) r.nextInt());
                }
                c = longer.flip();
            }
            case 3 -> { // a word overwritten with an extreme value
                if (c.limit() >= 8) {
                    c.putLong(r.nextInt(c.limit() - 7), EXTREMES[r.nextInt(EXTREMES.length)]);
                }
            }
            default -> { // an int (a length, a window) overwritten
                if (c.limit() >= 4) {
                    c.putInt(r.nextInt(c.limit() - 3), (int) EXTREMES[r.nextInt(EXTREMES.length)]);
                }
            }
        }
        return c;
    }

    private static ByteBuffer random(SplittableRandom r) {
        byte[] bytes = new byte[r.nextInt(128)];
        r.nextBytes(bytes);
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer header(long w0, long w1, long w2, long w3) {
        return ByteBuffer.allocate(LinkMessages.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(w0).putLong(w1).putLong(w2)
                .putLong(w3).flip();
    }

    private static ByteBuffer patch(ByteBuffer b, int at, int value) {
        ByteBuffer c = copy(b);
        c.putInt(at, value);
        return c;
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer src = b.duplicate();
        ByteBuffer c = ByteBuffer.allocate(src.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        c.put(src).flip();
        return c;
    }

    private static void assertRefused(Runnable decode, String message) {
        assertThatThrownBy(decode::run).isInstanceOf(MalformedMessageException.class).hasMessageContaining(message);
    }
}

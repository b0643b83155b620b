package io.seqlink.channel.shared;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Edge drop → rewrite against read → seat check (memory-model.md, XR5): a consumer process that read a slot of a frame
 * it has not acknowledged and then finds its seat still held ({@link AttachmentLease#held}) must not have read anything
 * the producer wrote into that slot after taking the seat back. A region of its own per state (a file mapped, then
 * deleted), one seat live for epoch 1 having acknowledged nothing, frame 1 published in its slot (every payload word 1).
 * The consumer reads the payload's 8 words in place, as a listener does, then checks its seat. The producer drops the
 * seat ({@link ExportSeats#drop}: the compare-and-set of its live epoch to 0), asks its gating for the slowest
 * acknowledgement ({@link ExportSeats#slowestAcknowledged}, which no longer counts the seat) and, the slot free by it,
 * writes frame 3's words (2) into it, as a producer claiming the slot does.
 * r1 = 1 when the consumer read a word of the rewrite; r2 = 1 when it found its seat held.
 */
@JCStressTest
@Description("Seqlock-style validation of an attached consumer's reads by its seat's live epoch")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Read frame 1 before the drop and found the seat held: intact, acknowledged")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Read frame 1, but the drop came before the check: reported, not acknowledged")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "Read words of the rewrite and found the seat taken back: reported")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Read words written after the drop, yet found the seat held: a rewritten frame "
        + "would be acknowledged as intact")
@Outcome(expect = FORBIDDEN, desc = "Not a result of this test")
@State
public class SeatLeaseCheckTest {

    static final int WORDS = 8;
    private static final Path DIR;
    private static final AtomicLong FILES = new AtomicLong();
    private static final SharedLayout LAYOUT = new SharedLayout(RingGeometry.of(2, 8L * WORDS), 1, 1);

    static {
        try {
            DIR = Files.createTempDirectory("seqlink-jcstress-lease");
            DIR.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final ExportSeats seats;
    private final AttachmentLease lease;
    private final ByteBuffer map;
    private final int payload;

    public SeatLeaseCheckTest() {
        SharedRegion region;
        try {
            Path file = DIR.resolve(FILES.incrementAndGet() + ".shm");
            region = SharedRegion.create(file, LAYOUT);
            Files.delete(file); // the mapping stays
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long[] published = {0};
        seats = new ExportSeats("lease", region, LAYOUT, () -> published[0]);
        seats.take(0, 1); // live for epoch 1, having acknowledged nothing
        lease = new AttachmentLease(region, LAYOUT, 0, 1, Duration.ofSeconds(1), why -> { });
        map = region.mapping();
        payload = (int) (LAYOUT.ring() + LAYOUT.geometry().offsetOf(1) + SlotHeader.BYTES);
        for (int i = 0; i < WORDS; i++) {
            map.putLong(payload + 8 * i, 1);
        }
        published[0] = 1; // frame 1 published; the jcstress harness publishes the state to the actors
    }

    @Actor
    public void consumer(II_Result r) {
        int rewrite = 0;
        for (int i = 0; i < WORDS; i++) {
            if (map.getLong(payload + 8 * i) == 2) {
                rewrite = 1;
            }
        }
        r.r1 = rewrite;
        r.r2 = lease.held() ? 1 : 0;
    }

    @Actor
    public void producer() {
        seats.drop(0, 1, "its heartbeat stood still");
        if (seats.slowestAcknowledged() >= 1) { // frame 1's slot may be reused (frame 3, in a ring of 2)
            for (int i = 0; i < WORDS; i++) {
                map.putLong(payload + 8 * i, 2);
            }
        }
    }
}

package io.seqlink.channel.producer;

import io.seqlink.LogKeys;
import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ChannelSnapshot;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.FrameContext;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import io.seqlink.layout.SlotHeader;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer calls of a channel, safe from any number of threads: each enters the producer guard
 * and checks the state inside it ({@link ProducerAdmission}), takes or finds its claim in the
 * {@link ProducerSequencer}, and moves its frame with the {@link ProducerTransport}. A claim belongs to
 * the thread that made it: {@code buffer}, {@code devicePointer}, {@code commit} and
 * {@code commitDevice} work on the calling thread's claim and fail at once, naming the rule, when it
 * holds none. Nothing here allocates per frame.
 *
 * <p>An open claim stays inside the producer guard from the claim to its commit: the staging slot the
 * thread writes through {@link #buffer()} is pinned memory, freed only once nobody can reach it, and
 * the thread reaches it until it commits. So {@code buffer} and {@code devicePointer} need no guard of
 * their own (a single producer pays one guard entry and one exit per frame, not three of each), a close
 * waits for a claim being written (up to its timeout) before it reads the final published count, and a
 * thread that never commits its claim keeps the channel's memory until it does, or until it dies: the
 * claim of a dead thread is given back on its behalf, and its guard entry released, by the next publish
 * that finds the window stopped at it or by the drain ({@link ProducerSequencer} says how, exactly once).
 * A commit the channel refuses (failed, closed or draining) drops the claim: it leaves the guard and the
 * claim is gone. {@link #abandon()} gives a claim back: published as padding, which no listener sees.
 *
 * <p>The channel that owns it reaches the rest through the public methods below (the drain's counts, the
 * snapshot's, what consumers read of the producer); each is safe from any thread.
 */
public final class Producer {

    private static final Logger log = LoggerFactory.getLogger(Producer.class);
    private static final long DRAIN_VERDICT_PAUSE_NANOS = 200_000;

    private final ChannelSpec spec;
    private final RingGeometry geometry;
    private final ProducerAdmission life;
    private final ProducerTransport producer;
    private final LongSupplier slowest;
    private final PublishTimeRecord publishTimes;
    private final AbandonedSequences abandoned;
    private final ProducerSequencer sequencer;
    private final OpenClaimAge openClaimAge = new OpenClaimAge();
    private final Runnable afterPublish;

    /**
     * @param slowestAcknowledged the slowest acknowledgement over the consumers that hold the producer back
     *                            ({@code Long.MAX_VALUE}: none), read when the cached one no longer frees a slot
     * @param afterPublish        runs after every publish step, once {@link #published()} shows its frames, on the
     *                            publishing thread: wakes the consumers' dozing loops (cheap, never blocks, allocates
     *                            nothing)
     * @param publishTimes        where the publish step records each frame's publish time (the shared region's record
     *                            for a channel other processes consume)
     */
    public Producer(ChannelSpec spec, ProducerTransport producer, ProducerAdmission life, LongSupplier slowestAcknowledged,
            Runnable afterPublish, PublishTimeRecord publishTimes) {
        this.spec = spec;
        this.afterPublish = afterPublish;
        this.geometry = spec.geometry();
        this.life = life;
        this.producer = producer;
        this.slowest = slowestAcknowledged;
        this.publishTimes = publishTimes;
        this.abandoned = new AbandonedSequences(geometry);
        this.sequencer = new ProducerSequencer(spec.maxPublishBatch(), new Gating(), abandoned);
    }

    /** What the sequencer asks of the channel: whether a slot is free, and the publish step. */
    private final class Gating implements ProducerSequencer.Gating {
        @Override
        public boolean slotFree(long sequence) {
            int slots = geometry.slots();
            if (spec.delivery() == Delivery.LATEST) {
                // consumers never hold us back, but the staging slot is reused only once our own stream has
                // copied its previous frame out (that frame is published by then)
                return sequence - slots <= 0 || sequence - slots <= producer.publishedOnDevice();
            }
            if (Sequences.slotFree(sequence, sequencer.cachedSlowest(), slots)) {
                return true;
            }
            long acked = slowest.getAsLong();
            sequencer.cacheSlowest(acked);
            return Sequences.slotFree(sequence, acked, slots);
        }

        @Override
        public void publishStep(long first, int count) {
            publishTimes.record(first, count, System.nanoTime());
            producer.publish(first, count);
        }

        @Override
        public void published() {
            afterPublish.run();
        }

        @Override
        public void pad(long sequence) {
            producer.setLength(sequence, SlotHeader.PADDING_LENGTH);
        }

        @Override
        public void ownerDied(long sequence, Thread owner) {
            life.exitProducer(); // the entry its tryClaim kept for the commit that never came
            log.atWarn().addKeyValue(LogKeys.CHANNEL, spec.name()).addKeyValue(LogKeys.DEVICE, spec.producer())
                    .addKeyValue(LogKeys.SEQUENCE, sequence)
                    .log("seqlink channel '{}': producer thread '{}' died holding claimed frame {} without committing it; the "
                            + "claim is given back (published as padding, which no listener sees)", spec.name(), owner.getName(), sequence);
        }
    }

    /** A claim keeps the guard it entered (the class comment says why); any other outcome leaves it. */
    public long tryClaim() {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        long seq = 0;
        try {
            seq = claimCounted();
            return seq;
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer()); // publishing the frames of others that filled the window
        } finally {
            if (seq <= 0) {
                life.exitProducer();
            }
        }
    }

    /** A claim inside the producer guard; a refusal for want of a slot is counted once. */
    private long claimCounted() {
        long seq = sequencer.claim(Thread.currentThread());
        if (seq > 0) {
            producer.stagingView(seq).clear();
        } else if (seq == ClaimStatus.BACK_PRESSURED) {
            sequencer.countBackPressured();
        }
        return seq;
    }

    public long claim() {
        return claim(spec.backpressureTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Waits while no slot is free, and while other threads' frames fill the window (the sequencer's claim
     * answers {@code BACK_PRESSURED} there, having helped publish them). Returns promptly when the thread
     * is interrupted, with the last status and the flag still set.
     */
    public long claim(long timeout, TimeUnit unit) {
        long status = tryClaim();
        if (status != ClaimStatus.BACK_PRESSURED) {
            return status;
        }
        long start = System.nanoTime();
        long deadline = start + unit.toNanos(timeout);
        for (int idle = 0; System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted(); idle++) {
            Backoff.idle(idle);
            if (!life.enterProducer()) {
                status = life.refusedStatus();
                break;
            }
            boolean claimed = false;
            try {
                status = sequencer.claim(Thread.currentThread());
                claimed = status > 0;
                if (claimed) {
                    producer.stagingView(status).clear();
                }
            } catch (DeviceException ex) {
                throw life.fail(ex, spec.producer());
            } finally {
                if (!claimed) {
                    life.exitProducer(); // a claim keeps the guard until its commit
                }
            }
            if (status != ClaimStatus.BACK_PRESSURED) {
                break;
            }
        }
        sequencer.addWaitNanos(System.nanoTime() - start);
        return status;
    }

    /** No guard of its own: the calling thread's claim holds it (the class comment). */
    public ByteBuffer buffer() {
        return producer.stagingView(claimOf("buffer()", "buffer()", "call tryClaim() first"));
    }

    public long devicePointer() {
        return producer.devicePointer(claimOf("devicePointer()", "devicePointer()", "call tryClaim() first"));
    }

    /** The calling thread's open claim, or an exception naming the rule (or why the channel refuses {@code call}). */
    private long claimOf(String call, String signature, String fix) {
        long seq = sequencer.openClaimOf(Thread.currentThread());
        if (seq == 0) {
            if (!life.admitsProducer()) {
                life.throwUnusable(call, "");
            }
            throw new IllegalStateException(signature + ": no frame is claimed on channel '" + spec.name() + "' by thread '"
                    + Thread.currentThread().getName() + "'; " + fix + " (a claim belongs to the thread that made it)");
        }
        return seq;
    }

    public void commit(int length) {
        commit(length, "commit", "commit(length)", false);
    }

    public void commitDevice(int length) {
        commit(length, "commitDevice", "commitDevice(length)", true);
    }

    /**
     * Ends the calling thread's claim and leaves the guard its claim entered. A length outside the slot
     * changes nothing (the claim stays open, to be committed again); a channel that refuses the commit,
     * or a device error, abandons the claim. {@code call} and {@code signature} are constants: nothing is
     * built per frame.
     */
    private void commit(int length, String call, String signature, boolean deviceWritten) {
        long seq = claimOf(call, signature, "call tryClaim() or claim() first and commit the frame it returns");
        checkLength(length, signature);
        try {
            if (!life.admitsProducer()) {
                sequencer.drop(seq);
                life.throwUnusable(call, " (the claimed frame " + seq + " is dropped)");
            }
            if (deviceWritten) {
                producer.setLength(seq, length);
                producer.settleDeviceFrame(seq);
            } else {
                producer.copyCommitted(seq, length);
            }
            sequencer.markCommitted(seq);
        } catch (DeviceException ex) {
            sequencer.drop(seq);
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer(); // the claim's own entry: it ends here, committed or dropped
        }
    }

    /**
     * Gives back the calling thread's open claim and leaves the guard it entered: the sequence is
     * committed as padding and published with whatever is committed before and behind it (frames other
     * threads committed behind this claim waited for it); on a channel that takes no more frames it is
     * only committed as padding, which the drain's report leaves out. False when the thread holds no claim.
     */
    public boolean abandon() {
        Thread me = Thread.currentThread();
        long seq = sequencer.abandon(me);
        if (seq == 0) {
            return false;
        }
        try {
            if (life.admitsProducer()) {
                sequencer.publishFor(seq);
            }
            return true;
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer(); // the claim's own entry
        }
    }

    private void checkLength(int length, String signature) {
        if (length < 0 || length > geometry.slotBytes()) {
            throw new IllegalArgumentException(signature + ": length " + length + " is outside 0.." + geometry.slotBytes()
                    + ", the slot size of channel '" + spec.name() + "'; write at most " + geometry.slotBytes()
                    + " bytes per frame or raise the channel's slot-size");
        }
    }

    /**
     * Publishes the committed frames of every producing thread, in sequence order, up to
     * the first one still being written; returns how many this call published: 0 when another thread's
     * publish is taking them (it publishes this thread's frames too), or when nothing is committed.
     */
    public int publish() {
        if (!life.enterProducer()) {
            return publishRefused();
        }
        try {
            return sequencer.publishFor(Thread.currentThread());
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    /**
     * A {@code publish()} the channel no longer admits. Frames this thread committed before a drain shut the producers
     * are the drain's to publish, so the call waits for its verdict (bounded by the drain's own timeout): 0 once they
     * are published, an exception when the channel failed or closed with them unpublished. Returning before the verdict
     * would let the caller think them lost and send them again while the drain delivers them.
     */
    private int publishRefused() {
        Thread me = Thread.currentThread();
        while (life.state() == ChannelState.DRAINING && sequencer.holdsWindowFrame(me)) {
            if (me.isInterrupted()) {
                throw new IllegalStateException("publish(): interrupted while channel '" + spec.name() + "' drains; the drain"
                        + " publishes this thread's committed frames or counts them unpublished in its report, so do not send"
                        + " them again");
            }
            LockSupport.parkNanos(DRAIN_VERDICT_PAUSE_NANOS);
        }
        if (life.state() == ChannelState.FAILED || sequencer.holdsWindowFrame(me)) {
            life.throwUnusable("publish()", " (this thread's committed frames were not published)");
        }
        return 0;
    }

    public long offer(ByteBuffer src) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        return offer(src, null, src.position(), length, null);
    }

    public long offer(ByteBuffer src, FrameContext context) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        return offer(src, null, src.position(), length, context);
    }

    /** Writes the trace context of the calling thread's claim; no guard of its own (the claim holds it). */
    public void context(FrameContext context) {
        producer.writeContext(claimOf("context", "context(FrameContext)", "call tryClaim() first"), context);
    }

    public long offer(byte[] src, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > src.length) {
            throw new IndexOutOfBoundsException("offer(src, offset, length): range [" + offset + ", " + (offset + length)
                    + ") is outside the array of " + src.length + " bytes");
        }
        checkOfferLength(length, "length");
        return offer(null, src, offset, length, null);
    }

    /**
     * Claims, copies, commits and publishes one frame from a buffer or an array; never waits (beyond the
     * sequencer's few tries on a window other threads' frames fill). No claim outlives the call.
     */
    private long offer(@Nullable ByteBuffer buffer, byte @Nullable [] array, int offset, int length,
            @Nullable FrameContext context) {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        Thread me = Thread.currentThread();
        long seq = 0;
        boolean committed = false;
        try {
            seq = sequencer.claimToPublish(me);
            if (seq == ClaimStatus.BACK_PRESSURED) {
                sequencer.countBackPressured();
            }
            if (seq > 0) {
                ByteBuffer slot = producer.stagingView(seq);
                if (buffer != null) {
                    slot.put(0, buffer, offset, length);
                } else {
                    slot.put(0, array, offset, length);
                }
                if (context != null) {
                    producer.writeContext(seq, context);
                }
                producer.copyCommitted(seq, length);
                sequencer.markCommitted(seq);
                committed = true;
                sequencer.publishFor(seq);
            }
            return seq;
        } catch (DeviceException ex) {
            if (seq > 0 && !committed) {
                sequencer.drop(seq);
            }
            throw life.fail(ex, spec.producer());
        } catch (RuntimeException | Error ex) {
            if (seq > 0 && !committed) {
                sequencer.abandon(me); // published as padding by the next publish: the window does not stop here
            }
            throw ex;
        } finally {
            life.exitProducer();
        }
    }

    private void checkOfferLength(int length, String argument) {
        if (length > geometry.slotBytes()) {
            throw new IllegalArgumentException("offer: " + argument + " holds " + length + " bytes, more than the slot size "
                    + geometry.slotBytes() + " of channel '" + spec.name() + "'; send smaller frames or raise the channel's slot-size");
        }
    }

    // ---- for the drain and the snapshot ------------------------------------------------------------

    /**
     * Gives back the claims of producer threads that died holding one, releasing their guard entries; they
     * are committed as padding, not published. Returns how many this call gave back. For the drain, which
     * shut the producers (so no later producer would). Any thread.
     */
    public int giveBackDeadClaims() {
        if (!life.enterObserver()) {
            return 0;
        }
        try {
            return sequencer.padDeadClaims();
        } finally {
            life.exitObserver();
        }
    }

    /**
     * Publishes the committed prefix for the drain, which gave back dead claims that held it up; nothing on
     * a failed channel. Any thread; a device error fails the channel.
     */
    public void publishForDrain() {
        if (life.state() == ChannelState.FAILED || !life.enterObserver()) {
            return;
        }
        try {
            sequencer.publishCommitted();
        } catch (DeviceException ex) {
            life.fail(ex, spec.producer());
        } finally {
            life.exitObserver();
        }
    }

    /** The oldest open claim, its owner and how long snapshots have seen it open; {@code null} when none is open. */
    public ChannelSnapshot.@Nullable OpenClaim openClaim() {
        ProducerSequencer.OpenClaim c = sequencer.oldestOpen();
        if (c == null) {
            return null;
        }
        return new ChannelSnapshot.OpenClaim(c.sequence(), c.owner().getName(), c.owner().isAlive(),
                openClaimAge.openNanos(c.sequence(), System.nanoTime()));
    }

    /** Frames whose publish step was enqueued, a count that only grows. */
    public long published() {
        return sequencer.published();
    }

    /** The highest sequence handed out. */
    public long claimed() {
        return sequencer.claimed();
    }

    /** Whether {@code thread} holds an open (uncommitted) claim. */
    public boolean holdsOpenClaim(Thread thread) {
        return sequencer.openClaimOf(thread) > 0;
    }

    /** Calls that found no free slot (once per call), and the time blocking claims spent waiting for one. */
    public long backPressured() {
        return sequencer.backPressured();
    }

    public long backPressureWaitNanos() {
        return sequencer.waitNanos();
    }

    /** When {@code sequence} was published, by {@link System#nanoTime()}; 0 when not known. */
    public long publishTime(long sequence) {
        return publishTimes.of(sequence);
    }

    /**
     * Copies the trace context frame {@code sequence} carries into {@code into} and returns {@code true}; clears
     * {@code into} and returns {@code false} when it carries none, is not published yet, or its slot was claimed again
     * since (under {@code latest} delivery, or once every consumer acknowledged it). Any thread; allocates nothing.
     *
     * <p>Why the answer is the frame's own: the words are written by the thread holding the claim before its commit
     * mark (a release), which the publisher reads before it enqueues the publish step and then raises
     * {@link #published()} (a release); a frame seen published there (an acquire), or on the device's mirror of
     * {@code publish_seq} (which the step stores after the frames, memory-model.md HR2; seen by a consumer before the
     * publisher's store of the count, on a loaded host), has its words in place. They stay until the slot's next claim,
     * which takes the claim cursor past {@code sequence + slots - 1} (a compare-and-set) before it writes any of them;
     * so the cursor is read after the words, behind an acquire fence (the order of {@code StampedLock.validate}): had a
     * read seen a word of the next claim, the cursor would show that claim, and the words are dropped.
     */
    public boolean context(long sequence, FrameContext into) {
        if (sequence < 1 || (sequencer.published() < sequence && producer.publishedOnDevice() < sequence)) {
            into.clear();
            return false;
        }
        boolean found = producer.readContext(sequence, into);
        VarHandle.acquireFence(); // the words above are read before the cursor below
        if (found && sequencer.claimed() - sequence >= geometry.slots()) {
            into.clear();
            return false;
        }
        return found;
    }

    /** How many of {@code from..to} are padding, claims given back ({@link AbandonedSequences#count} says when it is exact). */
    public long paddingIn(long from, long to) {
        return abandoned.count(from, to);
    }

    /** Claims given back so far. */
    public long claimsGivenBack() {
        return abandoned.total();
    }
}

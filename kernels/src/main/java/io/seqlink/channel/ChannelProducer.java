package io.seqlink.channel;

import io.seqlink.backend.DeviceException;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.Sequences;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The producer calls of a channel, safe from any number of threads: each enters the producer guard
 * and checks the state inside it ({@link ChannelLife}), takes or finds its claim in the
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
 * thread that never commits its claim keeps the channel's memory until it does. A commit the channel
 * refuses (failed, closed or draining) abandons the claim: it leaves the guard and the claim is gone.
 */
final class ChannelProducer {

    private final DefaultPublishChannel channel;
    private final ChannelSpec spec;
    private final RingGeometry geometry;
    private final ChannelLife life;
    private final ProducerTransport producer;
    private final PublishTimes publishTimes;
    private final ProducerSequencer sequencer;

    ChannelProducer(DefaultPublishChannel channel, ChannelLife life, ProducerTransport producer, PublishTimes publishTimes) {
        this.channel = channel;
        this.spec = channel.spec();
        this.geometry = channel.geometry();
        this.life = life;
        this.producer = producer;
        this.publishTimes = publishTimes;
        this.sequencer = new ProducerSequencer(spec.maxPublishBatch(), new Gating());
    }

    ProducerSequencer sequencer() {
        return sequencer;
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
            long slowest = slowestAcknowledged();
            sequencer.cacheSlowest(slowest);
            return Sequences.slotFree(sequence, slowest, slots);
        }

        @Override
        public void publishStep(long first, int count) {
            publishTimes.record(first, count, System.nanoTime());
            producer.publish(count);
        }
    }

    /** The slowest acknowledgement over consumers that hold the producer back (none: no limit). */
    private long slowestAcknowledged() {
        long slowest = Long.MAX_VALUE;
        for (io.seqlink.channel.consumer.DefaultConsumerPort p : channel.portArray()) {
            if (p.gates()) {
                slowest = Math.min(slowest, p.mirrorAcknowledged());
            }
        }
        return slowest;
    }

    /** A claim keeps the guard it entered (the class comment says why); any other outcome leaves it. */
    long tryClaim() {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        long seq = 0;
        try {
            seq = claimCounted();
            return seq;
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

    long claim() {
        return claim(spec.backpressureTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Waits while no slot is free, and while other threads hold the window full
     * ({@code BATCH_FULL} with no frame of this thread in it), helping to publish what they committed.
     * Returns promptly when the thread is interrupted, with the last status and the flag still set.
     */
    long claim(long timeout, TimeUnit unit) {
        long status = tryClaim();
        if (!worthWaiting(status)) {
            return status;
        }
        long start = System.nanoTime();
        long deadline = start + unit.toNanos(timeout);
        boolean counted = status == ClaimStatus.BACK_PRESSURED;
        for (int idle = 0; System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted(); idle++) {
            Backoff.idle(idle);
            if (!life.enterProducer()) {
                status = life.refusedStatus();
                break;
            }
            boolean claimed = false;
            try {
                if (status == ClaimStatus.BATCH_FULL) {
                    sequencer.publishCommitted();
                }
                status = sequencer.claim(Thread.currentThread());
                claimed = status > 0;
                if (claimed) {
                    producer.stagingView(status).clear();
                } else if (status == ClaimStatus.BACK_PRESSURED && !counted) {
                    sequencer.countBackPressured();
                    counted = true;
                }
            } catch (DeviceException ex) {
                throw life.fail(ex, spec.producer());
            } finally {
                if (!claimed) {
                    life.exitProducer(); // a claim keeps the guard until its commit
                }
            }
            if (!worthWaiting(status)) {
                break;
            }
        }
        sequencer.addWaitNanos(System.nanoTime() - start);
        return status;
    }

    private boolean worthWaiting(long status) {
        return status == ClaimStatus.BACK_PRESSURED
                || (status == ClaimStatus.BATCH_FULL && !sequencer.holdsWindowFrame(Thread.currentThread()));
    }

    /** No guard of its own: the calling thread's claim holds it (the class comment). */
    ByteBuffer buffer() {
        return producer.stagingView(claimOf("buffer()", "buffer()", "call tryClaim() first"));
    }

    long devicePointer() {
        return producer.devicePointer(claimOf("devicePointer()", "devicePointer()", "call tryClaim() first"));
    }

    /** The calling thread's open claim, or an exception naming the rule (or why the channel refuses {@code call}). */
    private long claimOf(String call, String signature, String fix) {
        long seq = sequencer.openClaimOf(Thread.currentThread());
        if (seq == 0) {
            if (!life.admitsProducer()) {
                life.throwUnusable(call, "");
            }
            throw new IllegalStateException(signature + ": no frame is claimed on channel '" + channel.name() + "' by thread '"
                    + Thread.currentThread().getName() + "'; " + fix + " (a claim belongs to the thread that made it)");
        }
        return seq;
    }

    void commit(int length) {
        commit(length, "commit", "commit(length)", false);
    }

    void commitDevice(int length) {
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
                sequencer.abandon(seq);
                life.throwUnusable(call, " (the claimed frame " + seq + " is dropped)");
            }
            if (deviceWritten) {
                producer.setLength(seq, length);
            } else {
                producer.copyCommitted(seq, length);
            }
            sequencer.markCommitted(seq);
        } catch (DeviceException ex) {
            sequencer.abandon(seq);
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer(); // the claim's own entry: it ends here, committed or abandoned
        }
    }

    private void checkLength(int length, String signature) {
        if (length < 0 || length > geometry.slotBytes()) {
            throw new IllegalArgumentException(signature + ": length " + length + " is outside 0.." + geometry.slotBytes()
                    + ", the slot size of channel '" + channel.name() + "'; write at most " + geometry.slotBytes()
                    + " bytes per frame or raise the channel's slot-size");
        }
    }

    /**
     * Publishes the committed frames of every producing thread, in sequence order, up to
     * the first one still being written; returns how many this call published: 0 when another thread's
     * publish is taking them (it publishes this thread's frames too), or when nothing is committed.
     */
    int publish() {
        if (!life.enterProducer()) {
            if (life.state() == ChannelState.FAILED || sequencer.holdsWindowFrame(Thread.currentThread())) {
                life.throwUnusable("publish()", " (this thread's committed frames were not published)");
            }
            return 0;
        }
        try {
            return sequencer.publishCommitted();
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    long offer(ByteBuffer src) {
        int length = src.remaining();
        checkOfferLength(length, "src");
        return offer(src, null, src.position(), length);
    }

    long offer(byte[] src, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > src.length) {
            throw new IndexOutOfBoundsException("offer(src, offset, length): range [" + offset + ", " + (offset + length)
                    + ") is outside the array of " + src.length + " bytes");
        }
        checkOfferLength(length, "length");
        return offer(null, src, offset, length);
    }

    /** Claims, copies, commits and publishes one frame from a buffer or an array; never waits. */
    private long offer(ByteBuffer buffer, byte[] array, int offset, int length) {
        if (!life.enterProducer()) {
            return life.refusedStatus();
        }
        try {
            Thread me = Thread.currentThread();
            long seq = sequencer.claim(me);
            if (seq == ClaimStatus.BATCH_FULL && !sequencer.holdsWindowFrame(me)) {
                sequencer.publishCommitted(); // other threads' committed frames fill the window: publish them, try once more
                seq = sequencer.claim(me);
            }
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
                producer.copyCommitted(seq, length);
                sequencer.markCommitted(seq);
                sequencer.publishCommitted();
            }
            return seq;
        } catch (DeviceException ex) {
            throw life.fail(ex, spec.producer());
        } finally {
            life.exitProducer();
        }
    }

    private void checkOfferLength(int length, String argument) {
        if (length > geometry.slotBytes()) {
            throw new IllegalArgumentException("offer: " + argument + " holds " + length + " bytes, more than the slot size "
                    + geometry.slotBytes() + " of channel '" + channel.name() + "'; send smaller frames or raise the channel's slot-size");
        }
    }
}

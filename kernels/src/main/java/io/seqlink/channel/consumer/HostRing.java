package io.seqlink.channel.consumer;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameContext;
import io.seqlink.layout.RingGeometry;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.AbstractList;
import org.jspecify.annotations.Nullable;

/**
 * The pinned host ring a host listener reads frames from, with the flyweights handed to listeners: one
 * {@link Frame} per slot and one batch list, made once. Frames are staged here by the consumer's stream
 * (or, for {@code HOST_STAGED} in place, pushed here by the producer) before a round is delivered.
 */
final class HostRing {

    final MappedBuffer memory;
    /** Whether the consumer's stream copies each round here (false: the frames are in host memory already). */
    final boolean staged;
    private final RingGeometry geometry;
    private final HostFrame[] frames;
    final FrameList batch;

    HostRing(MappedBuffer memory, boolean staged, RingGeometry geometry, String channel, int device, int maxBatch) {
        this.memory = memory;
        this.staged = staged;
        this.geometry = geometry;
        this.frames = new HostFrame[geometry.slots()];
        ByteBuffer all = memory.byteBuffer();
        for (int s = 0; s < frames.length; s++) {
            int offset = Math.toIntExact(s * geometry.stride());
            ByteBuffer payload = all.slice(offset + SlotHeader.BYTES, Math.toIntExact(geometry.slotBytes())).asReadOnlyBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
            frames[s] = new HostFrame(channel, device, payload, offset, memory);
        }
        this.batch = new FrameList(maxBatch + geometry.slots());
    }

    /**
     * The frame for {@code sequence}, or {@code null} when its staged stamp shows it was overwritten. A
     * frame whose length word is negative is {@link HostFrame#padding}: a claim given back, for no listener.
     */
    @Nullable HostFrame frame(long sequence, int attempt) {
        HostFrame f = frames[geometry.slotOf(sequence)];
        if (!holds(sequence)) {
            return null;
        }
        long length = memory.getPlain(f.slotOffset + SlotHeader.LENGTH);
        f.sequence = sequence;
        f.padding = length < 0;
        f.length = (int) Math.max(0, Math.min(length, geometry.slotBytes()));
        f.attempt = attempt;
        f.payload.clear().limit(f.length);
        return f;
    }

    /** Whether the slot of {@code sequence} holds that frame (its stamp). */
    boolean holds(long sequence) {
        return memory.getPlain(frames[geometry.slotOf(sequence)].slotOffset + SlotHeader.STAMP) == sequence;
    }

    /** Whether the slot of {@code sequence} holds that frame and it is a frame for listeners, not padding. */
    boolean holdsFrame(long sequence) {
        return holds(sequence) && memory.getPlain(frames[geometry.slotOf(sequence)].slotOffset + SlotHeader.LENGTH) >= 0;
    }

    /** One frame of a host round; reused for the slot's next frame. */
    static final class HostFrame implements Frame {
        private final String channel;
        private final int device;
        final ByteBuffer payload;
        final long slotOffset;
        private final MappedBuffer memory;
        long sequence;
        int length;
        int attempt;
        /** The sequence of a claim given back: acknowledged, never handed to a listener or the error handler. */
        boolean padding;

        HostFrame(String channel, int device, ByteBuffer payload, long slotOffset, MappedBuffer memory) {
            this.memory = memory;
            this.channel = channel;
            this.device = device;
            this.payload = payload;
            this.slotOffset = slotOffset;
        }

        /** Rewinds the payload for another delivery attempt. */
        HostFrame rewind(int attempt) {
            this.attempt = attempt;
            payload.clear().limit(length);
            return this;
        }

        @Override
        public String channel() {
            return channel;
        }

        @Override
        public int consumerDevice() {
            return device;
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public ByteBuffer payload() {
            return payload;
        }

        @Override
        public int attempt() {
            return attempt;
        }

        @Override
        public boolean hasContext() {
            return memory.getPlain(slotOffset + SlotHeader.CONTEXT) == SlotHeader.CONTEXT_W3C;
        }

        @Override
        public boolean context(FrameContext into) {
            return into.setFromHeader(memory, slotOffset);
        }

        @Override
        public String toString() {
            return "Frame[" + channel + "#" + sequence + ", " + length + " B, consumer " + device + "]";
        }
    }

    /** The frames of one batch round. */
    static final class FrameList extends AbstractList<Frame> {
        final HostFrame[] frames;
        int size;

        FrameList(int capacity) {
            this.frames = new HostFrame[capacity];
        }

        @Override
        public Frame get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException("index " + index + " outside a batch of " + size);
            }
            return frames[index];
        }

        @Override
        public int size() {
            return size;
        }
    }
}

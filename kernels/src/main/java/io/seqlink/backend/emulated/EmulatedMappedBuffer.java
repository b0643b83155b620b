package io.seqlink.backend.emulated;

import io.seqlink.backend.MappedBuffer;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/** Emulated pinned host memory: the host reads and writes it, devices address it. */
final class EmulatedMappedBuffer extends EmulatedMemory implements MappedBuffer {

    /** The whole shared mapping {@code region} is part of; {@code null} for memory this buffer allocated. */
    final @Nullable ByteBuffer sharedMapping;

    EmulatedMappedBuffer(EmulatedBackend backend, long address, long bytes) {
        super(backend, -1, address, bytes);
        this.sharedMapping = null;
    }

    /** Over {@code region}, part of {@code mapping}: memory this buffer does not own (a mapping shared with another process). */
    EmulatedMappedBuffer(EmulatedBackend backend, long address, ByteBuffer region, ByteBuffer mapping) {
        super(backend, -1, address, region);
        this.sharedMapping = mapping;
    }

    @Override
    public long getAcquire(long offset) {
        return getAcquireWord(offset);
    }

    @Override
    public long getPlain(long offset) {
        return getPlainWord(offset);
    }

    @Override
    public void setRelease(long offset, long value) {
        setReleaseWord(offset, value);
    }

    @Override
    public void setPlain(long offset, long value) {
        setPlainWord(offset, value);
    }

    @Override
    public long raiseTo(long offset, long value) {
        int i = index(offset, 8);
        for (;;) {
            long seen = (long) WORDS.getVolatile(buffer, i);
            if (seen >= value || WORDS.compareAndSet(buffer, i, seen, value)) {
                return seen;
            }
        }
    }

    @Override
    public ByteBuffer byteBuffer() {
        return buffer;
    }

    @Override
    public String toString() {
        return "MappedBuffer[0x" + Long.toHexString(address()) + ", " + bytes() + " B]";
    }
}

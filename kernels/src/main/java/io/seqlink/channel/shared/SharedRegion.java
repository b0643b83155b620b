package io.seqlink.channel.shared;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One mapping of a shared region file ({@link SharedLayout}), in the producer's process or a consumer's: slices of it
 * for the backend to map (control block, ring, seat mirrors), and the bookkeeping words (header, liveness, seat lines)
 * by {@link VarHandle} with the ordering each access names, the same view the emulated backend uses for its own words.
 *
 * <p>Word accesses are safe from any thread and any process that maps the file. The mapping stays valid until the
 * last buffer over it is unreachable (the JDK unmaps then), so nothing here unmaps.
 */
final class SharedRegion {

    private static final VarHandle WORDS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    final Path file;
    final long bytes;
    private final MappedByteBuffer map;

    private SharedRegion(Path file, MappedByteBuffer map) {
        this.file = file;
        this.bytes = map.capacity();
        this.map = map;
    }

    /** Creates the region file (owner-only, never an existing file) at {@code layout}'s size, zero-filled, and maps it. */
    static SharedRegion create(Path file, SharedLayout layout) throws IOException {
        long size = layout.regionBytes();
        if (size > SharedLayout.MAX_REGION_BYTES) {
            throw new IOException("the shared region of " + layout.geometry().slots() + " slots x " + layout.geometry().stride()
                    + " B and " + layout.seats() + " seats would be " + size + " bytes, more than one mapping holds ("
                    + SharedLayout.MAX_REGION_BYTES + "); use fewer slots or a smaller slotBytes");
        }
        try (FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(SharedDirectory.OWNER_FILE))) {
            SharedDirectory.ownerOnly(file);
            return new SharedRegion(file, ch.map(FileChannel.MapMode.READ_WRITE, 0, size));
        }
    }

    /** Maps an existing region file of exactly {@code size} bytes. */
    static SharedRegion open(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (ch.size() != size) {
                throw new IOException("the region " + file + " has " + ch.size() + " bytes where the producer announced " + size);
            }
            return new SharedRegion(file, ch.map(FileChannel.MapMode.READ_WRITE, 0, size));
        }
    }

    /** The whole mapping, the same buffer every time, for the backend to map parts of ({@code Device.mapShared}). */
    ByteBuffer mapping() {
        return map;
    }

    long getAcquire(long offset) {
        return (long) WORDS.getAcquire(map, index(offset));
    }

    long getPlain(long offset) {
        return (long) WORDS.get(map, index(offset));
    }

    void setRelease(long offset, long value) {
        WORDS.setRelease(map, index(offset), value);
    }

    void setVolatile(long offset, long value) {
        WORDS.setVolatile(map, index(offset), value);
    }

    long getVolatile(long offset) {
        return (long) WORDS.getVolatile(map, index(offset));
    }

    boolean compareAndSet(long offset, long expected, long value) {
        return WORDS.compareAndSet(map, index(offset), expected, value);
    }

    long getAndAdd(long offset, long delta) {
        return (long) WORDS.getAndAdd(map, index(offset), delta);
    }

    private int index(long offset) {
        if ((offset & 7) != 0 || offset < 0 || offset + 8 > bytes) {
            throw new IndexOutOfBoundsException("word at " + offset + " outside the " + bytes + "-byte region " + file);
        }
        return (int) offset;
    }
}

package io.seqlink.ucx.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** Checksummed test frames: | id (8) | CRC32C of the rest (8) | bytes derived from the id |. */
final class TestFrames {

    static final int HEADER = 16;

    private TestFrames() {
    }

    /** Fills {@code frame} (little-endian, {@code length} bytes) as frame {@code id}. */
    static void fill(ByteBuffer frame, long id, int length, CRC32C crc) {
        for (int i = HEADER; i < length; i++) {
            frame.put(i, (byte) (id * 31 + i));
        }
        crc.reset();
        crc.update(frame.duplicate().position(HEADER).limit(length));
        frame.putLong(0, id).putLong(8, crc.getValue());
    }

    /** The frame's id when its checksum holds, else -1. */
    static long check(ByteBuffer payload, CRC32C crc) {
        ByteBuffer p = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (p.limit() < HEADER) {
            return -1;
        }
        crc.reset();
        crc.update(p.duplicate().position(HEADER));
        return crc.getValue() == p.getLong(8) ? p.getLong(0) : -1;
    }
}

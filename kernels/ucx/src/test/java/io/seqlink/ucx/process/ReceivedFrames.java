package io.seqlink.ucx.process;

/**
 * What a receiving test process saw, per sender epoch: frames in id order, with counts of what broke
 * the order. Written by the one listener thread, read by the status printer (volatile fields).
 */
final class ReceivedFrames {

    private volatile long count;
    private volatile long corrupt;
    private volatile long duplicates;
    private volatile long gaps;
    private volatile long firstId = -1;
    private volatile long lastId = -1;
    private volatile long epochs;
    private volatile long epochFirstId = -1;
    private long epoch;

    void take(long id, long senderEpoch) {
        if (id < 0) {
            corrupt++;
            return;
        }
        count++;
        if (senderEpoch != epoch) {
            epoch = senderEpoch;
            epochs++;
            epochFirstId = id;
            lastId = id;
            if (firstId < 0) {
                firstId = id;
            }
            return;
        }
        if (id <= lastId) {
            duplicates++;
            return;
        }
        if (id > lastId + 1) {
            gaps += id - lastId - 1;
        }
        lastId = id;
    }

    String describe() {
        return "count=" + count + " corrupt=" + corrupt + " duplicates=" + duplicates + " gaps=" + gaps + " firstId=" + firstId
                + " lastId=" + lastId + " epochs=" + epochs + " epochFirstId=" + epochFirstId;
    }
}

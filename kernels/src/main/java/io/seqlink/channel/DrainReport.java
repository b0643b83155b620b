package io.seqlink.channel;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What closing a channel left behind. Every frame whose publish returned is either delivered to every
 * live consumer or counted here, per consumer in {@code undelivered}, exactly: a frame counts as
 * delivered once it was handed to the listener (the one a blocked listener is in included), and no
 * frame counted undelivered reaches a listener after the report, so replaying them duplicates nothing.
 * Frames committed before the drain began are published by it (their thread's later {@code publish()}
 * returns 0); claims never committed (a close that gave up on them) are {@code unpublished}. For a shared
 * channel, each consumer process attached while it drained is in {@code attached}, with what it had not acknowledged.
 *
 * @param channel              channel name
 * @param published            the highest sequence published once the producers were shut and what they had committed
 *                             was published (the drain's target); a claim given back as padding counts here
 * @param undelivered          per consumer device, published frames never handed to its listener (absent or 0: all delivered)
 * @param timedOut             whether the drain gave up waiting for this channel (a consumer had not acknowledged everything at its deadline)
 * @param unpublished          frames claimed but never published: claims still open when the drain gave up on them
 * @param listenersNotReturned per consumer device, the listener still inside a call when the drain ended; the
 *                             channel's memory stays allocated until it returns
 * @param interrupted          whether the draining thread was interrupted (it stopped waiting; the flag is kept)
 * @param attached             the consumer processes attached to a shared channel while it drained, by seat: those
 *                             attached as it ended, and those dropped while it waited (their process died or stopped)
 */
public record DrainReport(String channel, long published, Map<Integer, Long> undelivered, boolean timedOut, long unpublished,
        Map<Integer, String> listenersNotReturned, boolean interrupted, List<AttachedAtClose> attached) {

    public DrainReport {
        undelivered = Map.copyOf(undelivered);
        listenersNotReturned = Map.copyOf(listenersNotReturned);
        attached = List.copyOf(attached);
    }

    /** A report of a channel no other process was attached to. */
    public DrainReport(String channel, long published, Map<Integer, Long> undelivered, boolean timedOut, long unpublished,
            Map<Integer, String> listenersNotReturned, boolean interrupted) {
        this(channel, published, undelivered, timedOut, unpublished, listenersNotReturned, interrupted, List.of());
    }

    public DrainReport(String channel, long published, Map<Integer, Long> undelivered, boolean timedOut) {
        this(channel, published, undelivered, timedOut, 0, Map.of(), false);
    }

    /**
     * A consumer process attached to the channel as it drained. The producer cannot see which frames another process
     * handed to its listener, only what it acknowledged: {@code unacknowledged} frames may include one its listener was
     * still handling.
     *
     * @param seat           its seat
     * @param epoch          its attachment's epoch
     * @param pid            its process id
     * @param acknowledged   the highest sequence it acknowledged (for one dropped, as the drain began waiting)
     * @param unacknowledged frames published (up to the drain's target) it had not acknowledged: 0 when it took them all
     * @param dropped        whether it was dropped while the drain waited (its process exited or stopped): from its drop
     *                       on nothing waited for it
     */
    public record AttachedAtClose(int seat, long epoch, long pid, long acknowledged, long unacknowledged, boolean dropped) {
    }

    /** Frames published and never handed to a listener of this process, over its consumers. */
    public long totalUndelivered() {
        return undelivered.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Frames published and not acknowledged by an attached consumer process, over all of them. */
    public long totalUnacknowledgedByAttached() {
        return attached.stream().mapToLong(AttachedAtClose::unacknowledged).sum();
    }

    /**
     * The report for people, in one line: {@code channel 'frames': 500 published; undelivered to consumer 1: 12;
     * the drain timed out; 4 claimed frame(s) never published; still in a call on consumer 1: bean.onFrame (the
     * channel's memory is freed when it returns)}, or {@code channel 'frames': every one of 500 published frame(s)
     * delivered}.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder("channel '").append(channel).append("': ");
        if (clean() && !timedOut && !interrupted) {
            sb.append("every one of ").append(published).append(" published frame(s) delivered");
            if (!attached.isEmpty()) {
                sb.append(", and acknowledged by ").append(attached.size()).append(" attached process(es)");
            }
            return sb.toString();
        }
        sb.append(published).append(" published");
        String sep = "; undelivered to ";
        for (Map.Entry<Integer, Long> e : new TreeMap<>(undelivered).entrySet()) {
            if (e.getValue() > 0) {
                sb.append(sep).append("consumer ").append(e.getKey()).append(": ").append(e.getValue());
                sep = ", to ";
            }
        }
        if (totalUndelivered() == 0) {
            sb.append(", every one delivered");
        }
        sep = "; unacknowledged by attached process ";
        for (AttachedAtClose a : attached) {
            if (a.unacknowledged() > 0 || a.dropped()) {
                sb.append(sep).append(a.pid()).append(" (seat ").append(a.seat()).append(", epoch ").append(a.epoch())
                        .append(a.dropped() ? ", dropped while the drain waited" : "").append("): ").append(a.unacknowledged());
                sep = ", by ";
            }
        }
        if (timedOut) {
            sb.append("; the drain timed out");
        }
        if (interrupted) {
            sb.append("; the drain was interrupted");
        }
        if (unpublished > 0) {
            sb.append("; ").append(unpublished).append(" claimed frame(s) never published");
        }
        if (!listenersNotReturned.isEmpty()) {
            sep = "; still in a call on consumer ";
            for (Map.Entry<Integer, String> e : new TreeMap<>(listenersNotReturned).entrySet()) {
                sb.append(sep).append(e.getKey()).append(": ").append(e.getValue());
                sep = ", on consumer ";
            }
            sb.append(" (the channel's memory is freed when ").append(listenersNotReturned.size() == 1 ? "it returns)" : "they return)");
        }
        return sb.toString();
    }

    /**
     * Whether everything published was delivered here and acknowledged by every attached consumer process, nothing was
     * left unpublished, and every listener returned.
     */
    public boolean clean() {
        return totalUndelivered() == 0 && totalUnacknowledgedByAttached() == 0 && unpublished == 0 && listenersNotReturned.isEmpty();
    }
}

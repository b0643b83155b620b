package io.seqlink.channel.lifecycle;

import io.seqlink.LogKeys;
import io.seqlink.channel.AttachedConsumer;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.consumer.DefaultConsumerPort;
import io.seqlink.channel.producer.Producer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closing channels without losing a frame that was accepted.
 *
 * <ol>
 *   <li>DRAINING (one compare-and-set): new producer calls are refused;</li>
 *   <li>the producer guard shuts and the drain waits for the producer calls already inside, and for
 *       the claims being written (a claim holds the guard until its commit), so the published count it
 *       then reads is final: every publish that returned is in it;</li>
 *   <li>it waits until every live consumer, attached consumer processes included, acknowledged that count (or the
 *       timeout passes; a consumer process that dies meanwhile is dropped and no longer waited for), then
 *       finishes: what was not delivered is in the {@link DrainReport}, per consumer.</li>
 * </ol>
 *
 * <p>{@link #drainAll} closes a set of channels together (the runtime's close, the Spring registry's
 * stop): between steps 1 and 2 it lets seqlink's own listener threads keep publishing while outside
 * producers are refused, until every channel is quiet at once (nothing in flight, everything
 * acknowledged, no publish in between), so channels chained by listeners empty in any declaration order.
 *
 * <p>A claim whose producer thread died holds the guard for good: the drain gives it back on the thread's
 * behalf (padding, as {@link PublishChannel#abandon()}) while it waits, and publishes the frames other
 * threads committed behind it, so they are delivered and the memory is freed. Padding counts neither
 * delivered, undelivered nor unpublished.
 *
 * <p>A drain called from one of the channels' listener threads does not wait for that listener's own
 * consumer (it cannot acknowledge until the call returns): its frames count as undelivered. Every wait
 * returns at the deadline or at once when the thread is interrupted (the flag is kept).
 */
final class ChannelDrain {

    private static final Logger log = LoggerFactory.getLogger(ChannelDrain.class);
    private static final long PAUSE_NANOS = 200_000;

    private final long deadline;
    private final Duration timeout;
    private final Thread caller = Thread.currentThread();
    private boolean timedOut;
    private boolean interrupted;

    private ChannelDrain(Duration timeout) {
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    /** Drains and closes one channel; see the class comment. */
    static DrainReport drain(DefaultPublishChannel ch, Duration timeout) {
        return drainAll(List.of(ch), timeout, false).get(0);
    }

    /** Drains and closes {@code channels} together, listeners still publishing until all are quiet; a report per channel, in order. */
    static List<DrainReport> drainAll(List<DefaultPublishChannel> channels, Duration timeout) {
        return drainAll(channels, timeout, true);
    }

    private static List<DrainReport> drainAll(List<DefaultPublishChannel> channels, Duration timeout, boolean together) {
        ChannelDrain d = new ChannelDrain(timeout);
        List<DefaultPublishChannel> mine = new ArrayList<>();
        for (DefaultPublishChannel ch : channels) {
            if (ch.life().beginDrain(together)) {
                mine.add(ch);
            }
        }
        if (together) {
            while (!d.allQuiet(mine) && d.pause()) {
                // listeners forward what they still hold; outside producers are refused
            }
        }
        for (DefaultPublishChannel ch : mine) {
            ch.life().shutProducers();
        }
        long[] targets = new long[mine.size()];
        List<List<AttachedConsumer>> attachedAtTarget = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            DefaultPublishChannel ch = mine.get(i);
            do {
                giveBackDeadClaims(ch);
            } while (d.othersInside(ch) > 0 && d.pause()); // a producer call that was admitted finishes, a claim being written commits
            // frames their threads committed but had not published when the producers were shut: accepted, so published
            // here (the thread's later publish() finds them out and returns 0)
            ch.producerCalls().publishForDrain();
            targets[i] = ch.producerCalls().published();
            attachedAtTarget.add(ch.attachedConsumers()); // those dropped while it waits are still reported
        }
        for (int i = 0; i < mine.size(); i++) {
            DefaultPublishChannel ch = mine.get(i);
            while (ch.state() == ChannelState.DRAINING && !d.acknowledged(ch, targets[i]) && d.pause()) {
                // consumers take what was published
            }
        }
        List<DrainReport> reports = new ArrayList<>(channels.size());
        for (DefaultPublishChannel ch : channels) {
            int i = mine.indexOf(ch);
            reports.add(i >= 0 || ch.life().claimFinish()
                    ? d.finish(ch, i >= 0 ? targets[i] : ch.producerCalls().published(), i >= 0 ? attachedAtTarget.get(i) : List.of())
                    : d.awaitOther(ch));
        }
        return reports;
    }

    /** Every channel at once: no producer call inside, every live consumer caught up, and nothing published meanwhile. */
    private boolean allQuiet(List<DefaultPublishChannel> channels) {
        for (DefaultPublishChannel ch : channels) {
            giveBackDeadClaims(ch);
        }
        long before = publishedSum(channels);
        for (DefaultPublishChannel ch : channels) {
            if (othersInside(ch) > 0 || !acknowledged(ch, ch.producerCalls().published())) {
                return false;
            }
        }
        return publishedSum(channels) == before;
    }

    /** Gives back the claims of producer threads that died holding one, and publishes the frames they held up. */
    private static void giveBackDeadClaims(DefaultPublishChannel ch) {
        if (ch.producerCalls().giveBackDeadClaims() > 0) {
            ch.producerCalls().publishForDrain();
        }
    }

    /**
     * Producer calls and open claims inside {@code ch}'s guard, the caller's own claim excepted: it cannot
     * commit while this drain runs on its thread.
     */
    private int othersInside(DefaultPublishChannel ch) {
        return ch.life().producersInside() - (ch.producerCalls().holdsOpenClaim(caller) ? 1 : 0);
    }

    private static long publishedSum(List<DefaultPublishChannel> channels) {
        long sum = 0;
        for (DefaultPublishChannel ch : channels) {
            sum += ch.producerCalls().published();
        }
        return sum;
    }

    /** Whether every consumer that gates the producer and is alive acknowledged {@code target} (the caller's own excepted). */
    private boolean acknowledged(DefaultPublishChannel ch, long target) {
        if (target == 0 || !ch.enterObserver()) {
            return true;
        }
        try {
            for (DefaultConsumerPort p : ch.portArray()) {
                if (p.gates() && p.state() != ConsumerState.DEAD && !p.deliversOn(caller) && p.acknowledged() < target) {
                    return false;
                }
            }
            return ch.attachedAcknowledged(target);
        } finally {
            ch.exitObserver();
        }
    }

    /** Waits a little; false at the deadline or on interrupt (the flag stays set). */
    private boolean pause() {
        if (Thread.currentThread().isInterrupted()) {
            interrupted = true;
            return false;
        }
        if (System.nanoTime() - deadline >= 0) {
            timedOut = true;
            return false;
        }
        LockSupport.parkNanos(PAUSE_NANOS);
        return true;
    }

    /**
     * Finishes a channel this drain holds (or a failed one nobody drained): the report, then the end. {@code attachedBefore}
     * are the consumer processes attached when the drain's target was read.
     */
    private DrainReport finish(DefaultPublishChannel ch, long target, List<AttachedConsumer> attachedBefore) {
        ch.producerCalls().giveBackDeadClaims(); // a failed channel nobody drained, or an owner that died since: its guard entry
        Producer padding = ch.producerCalls();
        long claimed = ch.producerCalls().claimed();
        long unpublished = Math.max(0, claimed - target - padding.paddingIn(target + 1, claimed));
        Map<Integer, Long> undelivered = new LinkedHashMap<>();
        Map<Integer, String> stuck = new LinkedHashMap<>();
        boolean drained = true;
        boolean inside = ch.enterObserver();
        try {
            long published = Math.max(target, inside ? ch.publishedOnDevice() : target);
            for (DefaultConsumerPort p : ch.portArray()) {
                p.stop();
                long handed = p.sealDeliveries(); // no listener call begins from here: the handed count is final
                long acked = p.acknowledged();
                long reached = Math.max(acked, handed);
                long left = Math.max(0, published - reached - padding.paddingIn(reached + 1, published));
                if (left > 0) {
                    undelivered.put(p.device(), left);
                }
                drained &= acked >= published;
                String listener = !p.deliversOn(caller) && p.listenerInCall() ? p.listenerDescription() : null;
                if (listener != null && acked < published) {
                    stuck.put(p.device(), listener);
                }
            }
            target = published;
        } finally {
            if (inside) {
                ch.exitObserver();
            }
        }
        List<DrainReport.AttachedAtClose> attached = attachedAtClose(attachedBefore, ch.attachedConsumers(), target);
        for (DrainReport.AttachedAtClose a : attached) {
            drained &= a.dropped() || a.unacknowledged() == 0;
        }
        boolean late = timedOut && !drained; // the deadline is shared: only a channel not acknowledged by then missed it
        DrainReport report = new DrainReport(ch.name(), target, undelivered, late, unpublished, stuck, interrupted, attached);
        ch.life().finish(report);
        if (!report.clean()) {
            log.atWarn().addKeyValue(LogKeys.CHANNEL, ch.name())
                    .log("seqlink channel '{}' closed with {} undelivered frame(s) {} of {} published{}{}{}", ch.name(),
                    report.totalUndelivered(), undelivered, target, unpublished > 0 ? ", " + unpublished
                    + " claimed frame(s) never published" : "", late ? " after waiting " + timeout : "",
                    stuck.isEmpty() ? "" : "; listeners still running (the channel's memory is freed when they return): " + stuck);
            if (report.totalUnacknowledgedByAttached() > 0) {
                log.atWarn().addKeyValue(LogKeys.CHANNEL, ch.name())
                        .log("seqlink channel '{}' closed with {} frame(s) unacknowledged by attached consumer processes: {}",
                        ch.name(), report.totalUnacknowledgedByAttached(), report.attached());
            }
        }
        return report;
    }

    /**
     * The consumer processes to report, by seat: each attached now (read before the channel's end drops them), and each
     * attached at the drain's target and gone since (dropped while the drain waited), with its last acknowledgement.
     */
    private static List<DrainReport.AttachedAtClose> attachedAtClose(List<AttachedConsumer> before, List<AttachedConsumer> now,
            long target) {
        List<DrainReport.AttachedAtClose> out = new ArrayList<>();
        for (AttachedConsumer a : now) {
            out.add(new DrainReport.AttachedAtClose(a.seat(), a.epoch(), a.pid(), a.acknowledged(),
                    Math.max(0, target - a.acknowledged()), false));
        }
        for (AttachedConsumer b : before) {
            boolean still = now.stream().anyMatch(a -> a.seat() == b.seat() && a.epoch() == b.epoch());
            if (!still) {
                out.add(new DrainReport.AttachedAtClose(b.seat(), b.epoch(), b.pid(), b.acknowledged(),
                        Math.max(0, target - b.acknowledged()), true));
            }
        }
        out.sort(java.util.Comparator.comparingInt(DrainReport.AttachedAtClose::seat).thenComparingLong(DrainReport.AttachedAtClose::epoch));
        return out;
    }

    /** Another thread is draining {@code ch}: its report once it is done, or what can be said at our deadline. */
    private DrainReport awaitOther(DefaultPublishChannel ch) {
        while (ch.life().finalReport() == null && pause()) {
            // the other drain finishes
        }
        DrainReport r = ch.life().finalReport();
        return r != null ? r : new DrainReport(ch.name(), ch.producerCalls().published(), Map.of(), true, 0, Map.of(), interrupted);
    }
}

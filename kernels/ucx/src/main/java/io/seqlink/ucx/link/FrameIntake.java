package io.seqlink.ucx.link;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.ucx.LinkState;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openucx.jucx.ucp.UcpAmData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiver's frame side, on the link thread: lands {@link LinkMessages#FRAMES} batches in the
 * {@link LandingRing}, moves landed frames in link sequence order into the local channel, and keeps
 * the numbering that maps link sequences (of the sender's epoch) to local ones, from which the
 * "consumed" credit is computed. {@link #stopTaking()} alone is for any thread.
 */
final class FrameIntake {

    private static final Logger log = LoggerFactory.getLogger(ReceiverLink.class);
    private static final int MAX_FRAMES_PER_PASS = 256;
    private static final int KNOWN_EPOCHS = 16;

    private final PublishChannel local;
    private final LandingRing landing;
    private final OriginTable origins;
    private final LinkStatus status;
    private final List<ConsumerPort> ports = new ArrayList<>();
    private volatile boolean stopTaking;

    // link thread only
    private @Nullable String problem;
    private long epoch;
    private long received;
    private long epochBase;
    private long offset;
    private long lastLocal;
    /** Epochs linked before the current one, each with the newest of its link sequences published, oldest first. */
    private final java.util.LinkedHashMap<Long, Long> earlier = new java.util.LinkedHashMap<>();

    FrameIntake(PublishChannel local, LandingRing landing, OriginTable origins, LinkStatus status) {
        this.local = local;
        this.landing = landing;
        this.origins = origins;
        this.status = status;
        for (int d : local.consumerDevices()) {
            ports.add(local.consumer(d));
        }
        // a bridge opened again on the same channel (a restarted lifecycle): link frames map to local ones after those published
        this.lastLocal = local.snapshot().published();
    }

    long epoch() {
        return epoch;
    }

    /** The newest link sequence moved into the local channel. */
    long received() {
        return received;
    }

    boolean taking() {
        return !stopTaking;
    }

    /** Any thread: no frame is landed or moved after it. */
    void stopTaking() {
        stopTaking = true;
    }

    /** Lands a FRAMES batch if it is admissible; else returns the protocol error. */
    @Nullable String land(long first, long last, long bytes, UcpAmData data) {
        String wrong = bytes == data.getLength() ? landing.admissible(first, last, bytes, received)
                : "batch " + first + ".." + last + " says " + bytes + " B and carries " + data.getLength() + " B";
        if (wrong == null) {
            return landing.land(first, last, bytes, data);
        }
        return wrong + ": a protocol error";
    }

    /**
     * Continues the numbering for a new connection: a new epoch starts again, the current one skips frames
     * the sender lost, and an epoch this receiver linked before (a sender whose link was declared dead
     * while another took over, now back) continues after the newest of its frames published here, so none
     * is published twice.
     */
    void resume(Handshake.Hello h) {
        if (h.epoch() != epoch && epoch != 0) {
            remember(epoch, received);
        }
        Long known = h.epoch() == epoch ? null : earlier.remove(h.epoch());
        if (known != null) {
            log.warn("seqlink UCX channel '{}': sender epoch {} is back (after {}); its frames continue after {}", local.name(),
                    Long.toHexString(h.epoch()), Long.toHexString(epoch), known);
            epoch = h.epoch();
            received = Math.max(known, h.oldest() - 1);
            epochBase = received;
            offset = lastLocal - received;
        } else if (h.epoch() != epoch) {
            if (epoch != 0) {
                log.warn("seqlink UCX channel '{}': the sender restarted (epoch {} after {}); frames it had not sent are gone "
                        + "with it, numbering starts again at {}", local.name(), Long.toHexString(h.epoch()), Long.toHexString(epoch),
                        h.oldest());
            }
            epoch = h.epoch();
            epochBase = h.oldest() - 1; // older frames were confirmed to the sender before: nothing to resend
            received = epochBase;
            offset = lastLocal - epochBase;
        } else if (h.oldest() > received + 1) {
            log.error("seqlink UCX channel '{}': the sender no longer holds frames {}..{}, which never arrived", local.name(),
                    received + 1, h.oldest() - 1);
            offset += received - (h.oldest() - 1);
            received = h.oldest() - 1;
        }
    }

    private void remember(long senderEpoch, long newest) {
        earlier.put(senderEpoch, newest);
        if (earlier.size() > KNOWN_EPOCHS) {
            earlier.remove(earlier.keySet().iterator().next());
        }
    }

    /** The landing ring's problem found by the last {@link #deliver()}, once; {@code null} if none. */
    @Nullable String takeProblem() {
        String p = problem;
        problem = null;
        return p;
    }

    /** Moves landed frames into the local channel in order: claim, copy, commit; one publish for the pass. */
    int deliver() {
        if (stopTaking) {
            return 0;
        }
        int committed = 0;
        while (committed < MAX_FRAMES_PER_PASS) {
            long s = received + 1;
            int landed = landing.poll(s);
            if (landed == LandingRing.FAILED) {
                problem = landing.problem();
                break;
            }
            if (landed == LandingRing.WAITING) {
                break;
            }
            long seq = local.tryClaim();
            if (seq == ClaimStatus.BATCH_FULL && committed > 0) {
                local.publish();
                committed = 0;
                seq = local.tryClaim();
            }
            if (seq < 0) {
                if (seq == ClaimStatus.CLOSED || seq == ClaimStatus.FAILED) {
                    stopTaking = true;
                    status.finish(LinkState.FAILED, "the local channel '" + local.name() + "' is " + ClaimStatus.describe(seq)
                            + ": frames from the sender are no longer taken");
                }
                break; // back-pressured: the local consumers are behind; try again on the next pass
            }
            int length = (int) landing.length(s);
            origins.record(seq, epoch, s);
            local.buffer().put(0, landing.view(), landing.payloadOffset(s), length);
            local.commit(length);
            lastLocal = seq;
            received = s;
            status.addBytes(length);
            committed++;
        }
        if (committed > 0) {
            local.publish();
            status.received(received);
        }
        return committed;
    }

    /** The newest link sequence of this epoch that every live local consumer acknowledged. */
    long consumed() {
        long ack = Long.MAX_VALUE;
        for (ConsumerPort p : ports) {
            if (p.state() != ConsumerState.DEAD) {
                ack = Math.min(ack, p.acknowledged());
            }
        }
        if (ack == Long.MAX_VALUE) {
            ack = lastLocal;
        }
        return Math.max(epochBase, Math.min(received, ack - offset));
    }
}

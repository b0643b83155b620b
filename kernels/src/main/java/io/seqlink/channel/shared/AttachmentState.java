package io.seqlink.channel.shared;

import io.seqlink.channel.ChannelFailedException;
import io.seqlink.channel.ChannelState;
import io.seqlink.error.SeqlinkException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attached channel's state and first failure, and what leaving {@code OPEN} does to its port: seals its deliveries (no
 * listener call begins from then on, the rest of a round in delivery included) and stops it. State changes are
 * atomic ({@code OPEN → FAILED} by compare-and-set, either to {@code CLOSED}); the first failure wins.
 *
 * <p>Made before the port, because the port's lease and its device report failures into it while the port is being
 * built; {@link #bind} hands it the port's sealing once. A failure reported before the bind seals the port as it binds: the failing
 * thread sets {@code FAILED} and then reads the binding, the binding thread writes it and then reads the state, so at
 * least one of them finds the other's write and seals (both may: sealing and stopping are idempotent). Every method is
 * safe from any thread.
 */
final class AttachmentState {

    private static final Logger log = LoggerFactory.getLogger(AttachmentState.class);

    private final String name;
    private final int seat;
    private final long epoch;
    private final AtomicReference<ChannelState> state = new AtomicReference<>(ChannelState.OPEN);
    private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
    private volatile @Nullable Runnable sealPort;

    AttachmentState(String name, int seat, long epoch) {
        this.name = name;
        this.seat = seat;
        this.epoch = epoch;
    }

    /**
     * Hands over how to seal and stop the attachment's port, once, as soon as the port exists; seals it at once when the
     * attachment left {@code OPEN} already. {@code sealPort} may run twice and from any thread.
     */
    void bind(Runnable sealPort) {
        this.sealPort = sealPort;
        if (state() != ChannelState.OPEN) {
            sealPort.run();
        }
    }

    /** The producer or the consumer's device is gone: {@code OPEN → FAILED} with {@code why}, the port sealed and stopped. */
    void fail(String why) {
        record(why);
    }

    /**
     * The port found its seat taken back around a round ({@link AttachmentLease}), {@code why} naming the frames: fails
     * as {@link #fail} does; when it failed or closed already (its heartbeat thread saw the drop first, say), {@code why}
     * says what that failure cannot (which frames the listener had), so it is added to the failure
     * ({@link Throwable#addSuppressed}) and logged.
     */
    void seatLost(String why) {
        if (record(why) && state() == ChannelState.FAILED) {
            return; // failed with why, logged
        }
        Throwable first = failure.get();
        if (first != null && !why.equals(Objects.requireNonNull(first.getCause()).getMessage())) {
            first.addSuppressed(new SeqlinkException(why));
        }
        log.error("seqlink attached channel '{}' (seat {}, epoch {}, {}): {}", name, seat, epoch,
                state().name().toLowerCase(java.util.Locale.ROOT), why);
    }

    /**
     * Any state to {@code CLOSED}, the port sealed and stopped as it leaves {@code OPEN} (a failure sealed it already);
     * whether this call closed it (false: closed before).
     */
    boolean close() {
        ChannelState was = state.getAndSet(ChannelState.CLOSED);
        if (was == ChannelState.OPEN) {
            sealBound();
        }
        return was != ChannelState.CLOSED;
    }

    ChannelState state() {
        return Objects.requireNonNull(state.get(), "never null");
    }

    /** The failure, while the state is {@code FAILED}. */
    @Nullable Throwable failure() {
        return state() == ChannelState.FAILED ? failure.get() : null;
    }

    /** Records {@code why} as the failure unless one is recorded, then {@code OPEN → FAILED}; whether it recorded it. */
    private boolean record(String why) {
        if (!failure.compareAndSet(null, new ChannelFailedException(name, new SeqlinkException(why)))) {
            return false;
        }
        if (state.compareAndSet(ChannelState.OPEN, ChannelState.FAILED)) {
            sealBound();
            log.error("seqlink attached channel '{}' (seat {}, epoch {}) failed: {}; close() it, and attach again once a "
                    + "producer shares it", name, seat, epoch, why);
        }
        return true;
    }

    /** Seals the port if it is bound; one bound later is sealed by {@link #bind}. */
    private void sealBound() {
        Runnable seal = sealPort;
        if (seal != null) {
            seal.run();
        }
    }
}

package io.seqlink.channel;

import io.seqlink.backend.DeviceException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's state, changed only by compare-and-set, and its failure. Pause and resume never undo
 * {@code DEAD} or {@code CLOSED}; whichever of close and death comes first wins, and each cancels the
 * armed stream wait (a stream wait never times out).
 *
 * <pre>
 *   ACTIVE <──pause/resume──> PAUSED
 *     \                         \
 *      └──channel closed────────┴──> CLOSED
 *      └──device failed─────────┴──> DEAD    (applies the channel's consumer-failure policy once)
 * </pre>
 */
final class ConsumerLife {

    private static final Logger log = LoggerFactory.getLogger(ConsumerPort.class);
    private static final VarHandle STATE;
    private static final VarHandle FAILURE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ConsumerLife.class, "state", ConsumerState.class);
            FAILURE = MethodHandles.lookup().findVarHandle(ConsumerLife.class, "failure", DeviceException.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ConsumerPort port;
    private final DefaultPublishChannel channel;
    @SuppressWarnings("unused") // through STATE
    private volatile ConsumerState state = ConsumerState.ACTIVE;
    @SuppressWarnings("unused") // set through FAILURE
    private volatile @Nullable DeviceException failure;

    ConsumerLife(ConsumerPort port, DefaultPublishChannel channel) {
        this.port = port;
        this.channel = channel;
    }

    ConsumerState state() {
        return (ConsumerState) STATE.getVolatile(this);
    }

    /** Why the consumer died, or {@code null} while it is not dead (read after the state, which is set after it). */
    @Nullable Throwable failure() {
        return state() == ConsumerState.DEAD ? failure : null;
    }

    boolean pause() {
        if (STATE.compareAndSet(this, ConsumerState.ACTIVE, ConsumerState.PAUSED)) {
            port.rounds().cancelArmed(); // a paused consumer holds no stream wait
            return true;
        }
        return false;
    }

    boolean resume() {
        if (STATE.compareAndSet(this, ConsumerState.PAUSED, ConsumerState.ACTIVE)) {
            port.markProgress();
            return true;
        }
        return false;
    }

    void stop() {
        for (ConsumerState s = state(); s != ConsumerState.DEAD && s != ConsumerState.CLOSED; s = state()) {
            if (STATE.compareAndSet(this, s, ConsumerState.CLOSED)) {
                port.rounds().cancelArmed(); // before the channel's streams close: a stream wait never times out
                return;
            }
        }
    }

    /**
     * The consumer dies of {@code cause}, unless it is dead or closed already. The failure is recorded BEFORE the
     * state turns {@code DEAD} (the first failure wins), so a thread that sees the consumer dead sees why.
     */
    void die(DeviceException cause) {
        FAILURE.compareAndSet(this, null, cause);
        for (ConsumerState s = state(); s != ConsumerState.DEAD && s != ConsumerState.CLOSED; s = state()) {
            if (STATE.compareAndSet(this, s, ConsumerState.DEAD)) {
                port.rounds().cancelArmed();
                DeviceException first = failure;
                log.error("seqlink channel '{}': consumer on device {} failed: {}", channel.name(), port.device(), first.getMessage());
                channel.consumerFailed(port, first);
                return;
            }
        }
    }

    boolean active() {
        return state() == ConsumerState.ACTIVE;
    }

    /** Whether a round in delivery may go on (retries included): the consumer is neither dead nor closed. */
    boolean deliverable() {
        ConsumerState s = state();
        return s == ConsumerState.ACTIVE || s == ConsumerState.PAUSED;
    }

    /** Whether the producer waits for this consumer's acknowledgements (lossless backpressure). */
    boolean gates() {
        return state() != ConsumerState.DEAD || channel.spec().consumerFailurePolicy() == ConsumerFailurePolicy.KEEP_WAITING;
    }
}

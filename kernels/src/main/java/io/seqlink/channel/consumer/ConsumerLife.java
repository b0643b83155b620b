package io.seqlink.channel.consumer;

import io.seqlink.LogKeys;
import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ConsumerState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer's state, changed only by compare-and-set, and its failure. Pause and resume never undo {@code DEAD}
 * or {@code CLOSED}; whichever of close and death comes first wins. Leaving {@code ACTIVE} runs {@code onLeave}
 * (the port releases its armed round: a stream wait never times out).
 *
 * <pre>
 *   ACTIVE <──pause/resume──> PAUSED
 *     \                         \
 *      └──channel closed────────┴──> CLOSED
 *      └──device failed─────────┴──> DEAD    (onDeath runs once: the channel applies its consumer-failure policy)
 * </pre>
 *
 * <p>Every method is safe from any thread.
 */
final class ConsumerLife {

    private static final Logger log = LoggerFactory.getLogger(ConsumerLife.class);
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

    private final String channel;
    private final int device;
    private final boolean gatesWhenDead;
    private final Runnable onLeave;
    private final Consumer<DeviceException> onDeath;
    @SuppressWarnings("unused") // through STATE
    private volatile ConsumerState state = ConsumerState.ACTIVE;
    @SuppressWarnings("unused") // set through FAILURE
    private volatile @Nullable DeviceException failure;

    /**
     * @param gatesWhenDead whether the producer keeps waiting for a dead consumer's acknowledgements (the
     *                      channel's {@code keep-waiting} policy)
     * @param onLeave       runs on the thread that moves the consumer out of {@code ACTIVE}
     * @param onDeath       runs once, on the thread that killed the consumer, after the state turned {@code DEAD}
     */
    ConsumerLife(String channel, int device, boolean gatesWhenDead, Runnable onLeave, Consumer<DeviceException> onDeath) {
        this.channel = channel;
        this.device = device;
        this.gatesWhenDead = gatesWhenDead;
        this.onLeave = onLeave;
        this.onDeath = onDeath;
    }

    ConsumerState state() {
        return (ConsumerState) STATE.getVolatile(this);
    }

    /** Why the consumer died, or {@code null} while it is not dead (recorded before the state turns {@code DEAD}). */
    @Nullable Throwable failure() {
        return state() == ConsumerState.DEAD ? failure : null;
    }

    boolean pause() {
        if (STATE.compareAndSet(this, ConsumerState.ACTIVE, ConsumerState.PAUSED)) {
            onLeave.run(); // a paused consumer holds no stream wait
            return true;
        }
        return false;
    }

    boolean resume() {
        return STATE.compareAndSet(this, ConsumerState.PAUSED, ConsumerState.ACTIVE);
    }

    /** The channel closed: {@code CLOSED}, unless the consumer died first. */
    void stop() {
        for (ConsumerState s = state(); s != ConsumerState.DEAD && s != ConsumerState.CLOSED; s = state()) {
            if (STATE.compareAndSet(this, s, ConsumerState.CLOSED)) {
                onLeave.run(); // before the channel's streams close
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
                onLeave.run();
                DeviceException first = (DeviceException) FAILURE.getVolatile(this);
                log.atError().addKeyValue(LogKeys.CHANNEL, channel).addKeyValue(LogKeys.DEVICE, device)
                        .log("seqlink channel '{}': consumer on device {} failed: {}", channel, device, first.getMessage());
                onDeath.accept(first);
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
        return state() != ConsumerState.DEAD || gatesWhenDead;
    }
}

package io.seqlink.channel.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.layout.ConsumerBlock;
import java.lang.reflect.Proxy;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How an armed round that landed tells who released it, which decides whether an empty landing counts as
 * {@code armedReleased} or {@code armedEarlyWakes}: this port's cancel and the backend's own release of the
 * stream's wait (before a module load or a context synchronisation, which the CUDA backend does and the
 * emulated one never needs) are releases; a wait that passed on a doorbell nobody on the host raised is not.
 * The stream is a stand-in that counts the backend's releases as a test sets them.
 */
class ArmedRoundLandingTest {

    private SeqlinkRuntime rt;
    private MappedBuffer doorbells;
    private MappedBuffer mirror;
    private final AtomicLong backendReleases = new AtomicLong();
    private ArmedRound armed;

    @BeforeEach
    void setUp() {
        rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(1)).open();
        doorbells = rt.backend().device(0).allocateMapped(8 * 8);
        mirror = rt.backend().device(0).allocateMapped(ConsumerBlock.BYTES);
        DeviceStream stream = (DeviceStream) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DeviceStream.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "waitsReleasedByBackend" -> backendReleases.get();
                    case "canWaitValue", "completed" -> true;
                    case "waitValueAtLeast" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        armed = Objects.requireNonNull(ArmedRound.of(doorbells,
                new CancelMark(mirror, rt.backend().device(0).allocate(ConsumerBlock.BYTES), rt.backend().device(0)), stream, Long.MAX_VALUE), "the test gives it doorbells");
    }

    @AfterEach
    void tearDown() {
        doorbells.close();
        mirror.close();
        rt.close();
    }

    @Test
    void aRoundNobodyOnTheHostReleasedIsNotReleased() {
        armed.arm(5, 9);
        assertThat(armed.landed()).as("woken by a doorbell the host did not raise: an early wake if it lands empty").isFalse();
        assertThat(armed.armed()).isZero();
    }

    @Test
    void aRoundThisPortCancelledIsReleased() {
        armed.arm(5, 12);
        armed.cancel();
        assertThat(mirror.getAcquire(ConsumerBlock.ARM_CANCEL)).as("the cancel marked round 12 cancelled").isEqualTo(12);
        assertThat(doorbells.getAcquire(5 * 8)).as("the cancel raised the frame's doorbell").isEqualTo(5);
        assertThat(armed.landed()).isTrue();
    }

    @Test
    void theCancelMarkOnlyRisesAndNothingArmedMarksNothing() {
        armed.cancel();
        assertThat(mirror.getAcquire(ConsumerBlock.ARM_CANCEL)).as("nothing armed: nothing marked").isZero();
        armed.arm(5, 12);
        armed.cancel();
        armed.cancel();
        assertThat(armed.landed()).isTrue();
        mirror.raiseTo(ConsumerBlock.ARM_CANCEL, 20); // as a later round's cancel would
        armed.arm(6, 14);
        armed.cancel();
        assertThat(mirror.getAcquire(ConsumerBlock.ARM_CANCEL)).as("never lowered: round 14 is cancelled by the mark of 20")
                .isEqualTo(20);
    }

    @Test
    void aRoundTheBackendReleasedIsReleased() {
        armed.arm(5, 9);
        backendReleases.incrementAndGet(); // e.g. a module load on the consumer's context
        assertThat(armed.landed()).isTrue();
    }

    @Test
    void releasesBeforeTheArmOrOfAnEarlierFrameDoNotCount() {
        armed.arm(5, 9);
        armed.cancel();
        assertThat(armed.landed()).isTrue();
        backendReleases.incrementAndGet(); // released nothing armed now
        armed.arm(6, 10);
        assertThat(armed.landed()).as("frame 6: neither this port nor the backend released it").isFalse();
    }
}

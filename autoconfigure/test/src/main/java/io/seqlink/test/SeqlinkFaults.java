package io.seqlink.test;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedFaults;

/**
 * Device faults a test injects into the emulated backend of the application's {@link SeqlinkRuntime},
 * to see what the service does when a GPU misbehaves: its health, its error handling, its metrics.
 * {@link io.seqlink.test.context.EmulatedSeqlink @EmulatedSeqlink} adds this bean to the context;
 * inject it with {@code @Autowired SeqlinkFaults faults}.
 *
 * <p>Every method is safe from any thread; a fault takes effect at the device's next operation. A
 * stalled device can be resumed; launch failures are sticky once they happen (as in CUDA), and a lost
 * device stays lost: a context with such a fault should not be shared with later tests (mark the test
 * {@code @DirtiesContext}).
 */
public final class SeqlinkFaults {

    /** The name of the bean {@code @EmulatedSeqlink} registers. */
    public static final String BEAN_NAME = "seqlinkFaults";

    private final EmulatedFaults faults;

    /**
     * @throws IllegalStateException when the runtime is not on the emulated backend (only it can inject
     *                               faults: set seqlink.backend=emulated, or use @EmulatedSeqlink)
     */
    public SeqlinkFaults(SeqlinkRuntime runtime) {
        if (!(runtime.backend() instanceof EmulatedBackend emulated)) {
            throw new IllegalStateException("SeqlinkFaults needs the emulated backend, but the runtime runs on "
                    + runtime.backendKind() + ": annotate the test with @EmulatedSeqlink or set seqlink.backend=emulated");
        }
        this.faults = emulated.faults();
    }

    /**
     * Stalls {@code device}: its streams accept work but run none, so a consumer there stops
     * acknowledging (its channel reports it stalled after the stall timeout, and a lossless producer is
     * back-pressured once the ring is full). {@link #resumeDevice(int)} lets the queued work run, in order.
     * What runs on a consumer's device is a device listener's round or a staged host listener's; a host listener of
     * a lossless channel reads frames the producer pushed into host memory, so its own device's faults do not reach
     * it (stall the producer's device instead).
     */
    public SeqlinkFaults stallDevice(int device) {
        faults.stallDevice(device);
        return this;
    }

    /** Lets a stalled {@code device} run again; what queued meanwhile runs in order. */
    public SeqlinkFaults resumeDevice(int device) {
        faults.resumeDevice(device);
        return this;
    }

    /**
     * The next {@code count} kernel launches on {@code device} fail with {@code CUDA_ERROR_LAUNCH_FAILED}.
     * As in CUDA the error is sticky: the consumer on that device dies, and its channel follows its
     * {@code consumer-failure-policy}.
     */
    public SeqlinkFaults failLaunches(int device, int count) {
        faults.failNextLaunches(device, count);
        return this;
    }

    /** {@code device} falls off the bus: every later operation on it, or on its memory, fails. */
    public SeqlinkFaults loseDevice(int device) {
        faults.loseDevice(device);
        return this;
    }
}

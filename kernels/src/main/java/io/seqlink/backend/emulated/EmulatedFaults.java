package io.seqlink.backend.emulated;

/**
 * Fault injection for the emulated backend, for tests and drills: stall a device's streams (work
 * queues but does not run), make its next kernel launches fail (a sticky error, as in CUDA), make its
 * publishes' host mirror run ahead of what they published, or lose the device altogether.
 */
public final class EmulatedFaults {

    private final EmulatedBackend backend;

    EmulatedFaults(EmulatedBackend backend) {
        this.backend = backend;
    }

    /** Stalls every stream of {@code device} whose name contains {@code streamNamePart} (empty: all). */
    public void stallStreams(int device, String streamNamePart) {
        for (EmulatedStream s : backend.device(device).streams()) {
            if (s.name().contains(streamNamePart)) {
                s.stall();
            }
        }
    }

    /** Stalls every stream of {@code device}. */
    public void stallDevice(int device) {
        stallStreams(device, "");
    }

    /** Lets every stalled stream of {@code device} run again; queued work runs in order. */
    public void resumeDevice(int device) {
        for (EmulatedStream s : backend.device(device).streams()) {
            s.resume();
        }
    }

    /** The next {@code count} kernel launches on {@code device} fail with {@code CUDA_ERROR_LAUNCH_FAILED} (sticky). */
    public void failNextLaunches(int device, int count) {
        backend.device(device).failNextLaunches(count);
    }

    /**
     * From now on the publish steps on {@code device} (a producer's) store their host mirror of {@code publish_seq}
     * {@code frames} ahead of {@code publish_seq} itself: a broken publish, which the protocol rules out, so a
     * launcher asks the consumers for frames that are not there (their ordinary rounds end short). 0 restores it.
     */
    public void runMirrorAhead(int device, long frames) {
        if (frames < 0) {
            throw new IllegalArgumentException("frames must be 0 or more, was " + frames);
        }
        backend.device(device).mirrorLead(frames);
    }

    /** {@code device} falls off the bus: every later operation on it, or on its memory, fails. */
    public void loseDevice(int device) {
        backend.device(device).lose();
    }
}

package io.seqlink.backend.cuda;

import io.seqlink.backend.DeviceStream;

/**
 * Provokes real device faults, for tests and drills that check how seqlink reports and contains them.
 * Each launches {@code seqlink_test_fault} on a stream: the fault is sticky, so the stream's device
 * context is unusable afterwards and every later call on it fails. Run it in a process of its own.
 */
public final class CudaFaultInjection {

    private CudaFaultInjection() {
    }

    /** A kernel on {@code stream} stores to an unmapped address: {@code CUDA_ERROR_ILLEGAL_ADDRESS}. */
    public static void illegalAddress(DeviceStream stream) {
        launch(stream, 0);
    }

    /** A kernel on {@code stream} executes a trap: {@code CUDA_ERROR_LAUNCH_FAILED}. */
    public static void trap(DeviceStream stream) {
        launch(stream, 1);
    }

    private static void launch(DeviceStream stream, int mode) {
        if (!(stream instanceof CudaStream s)) {
            throw new IllegalArgumentException("stream: " + stream + " is not a CUDA backend stream");
        }
        KernelLaunch k = new KernelLaunch(s.context(), "seqlink_test_fault", 8, 4);
        k.params.putLong(0, 0x10L); // the first page is never mapped
        k.params.putInt(1, mode);
        k.launch(s.handle(), 1, 1);
        s.onClose(k::release);
    }
}

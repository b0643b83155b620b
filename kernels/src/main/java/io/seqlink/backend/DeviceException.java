package io.seqlink.backend;

import io.seqlink.error.SeqlinkException;
import org.jspecify.annotations.Nullable;

/**
 * A device call failed. Carries the driver's error name (e.g. {@code CUDA_ERROR_LAUNCH_FAILED}), the
 * call that reported it, and whether the error is sticky: a sticky error leaves the device's context
 * unusable, so everything on that device must be closed.
 */
public class DeviceException extends SeqlinkException {

    private static final long serialVersionUID = 1L;

    private final String errorName;
    private final String call;
    private final int device;
    private final boolean sticky;

    public DeviceException(String errorName, String call, int device, boolean sticky, @Nullable String detail) {
        super(errorName + " from " + call + (device >= 0 ? " on device " + device : "")
                + (sticky ? " (sticky: the device's context is unusable)" : "")
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.errorName = errorName;
        this.call = call;
        this.device = device;
        this.sticky = sticky;
    }

    public String errorName() {
        return errorName;
    }

    public String call() {
        return call;
    }

    public int device() {
        return device;
    }

    public boolean sticky() {
        return sticky;
    }
}

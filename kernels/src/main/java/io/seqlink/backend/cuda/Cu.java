package io.seqlink.backend.cuda;

import io.seqlink.backend.DeviceException;
import jcuda.driver.CUresult;
import org.jspecify.annotations.Nullable;

/**
 * Turns CUDA driver result codes into {@link DeviceException}s carrying the error's name, the call and
 * whether the error is sticky. JCuda's own exceptions stay off (its default): every call's code is
 * checked here, so "not ready" and "peer access already enabled" are answers, not exceptions.
 */
final class Cu {

    private Cu() {
    }

    /** Throws unless {@code result} is {@code CUDA_SUCCESS}. */
    static void check(int result, String call, int device) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw error(result, call, device, null);
        }
    }

    /** Throws unless {@code result} is {@code CUDA_SUCCESS}; {@code detail} says what was being done. */
    static void check(int result, String call, int device, @Nullable String detail) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw error(result, call, device, detail);
        }
    }

    static DeviceException error(int result, String call, int device, @Nullable String detail) {
        return new DeviceException(name(result), call, device, sticky(result), detail);
    }

    /** The error's name as the driver spells it, e.g. {@code CUDA_ERROR_LAUNCH_FAILED}. */
    static String name(int result) {
        String s = CUresult.stringFor(result);
        return s == null || s.startsWith("INVALID CUresult") ? "CUDA_ERROR_" + result : s;
    }

    /**
     * Whether an error leaves the context unusable: every later call in it fails the same way until
     * the process (or the primary context) is torn down. The CUDA programming guide's list of
     * errors raised by a faulting kernel, plus uncorrectable ECC/NVLink errors and a lost device.
     */
    static boolean sticky(int result) {
        switch (result) {
            case CUresult.CUDA_ERROR_ILLEGAL_ADDRESS:
            case CUresult.CUDA_ERROR_LAUNCH_TIMEOUT:
            case CUresult.CUDA_ERROR_ASSERT:
            case CUresult.CUDA_ERROR_HARDWARE_STACK_ERROR:
            case CUresult.CUDA_ERROR_ILLEGAL_INSTRUCTION:
            case CUresult.CUDA_ERROR_MISALIGNED_ADDRESS:
            case CUresult.CUDA_ERROR_INVALID_ADDRESS_SPACE:
            case CUresult.CUDA_ERROR_INVALID_PC:
            case CUresult.CUDA_ERROR_LAUNCH_FAILED:
            case CUresult.CUDA_ERROR_ECC_UNCORRECTABLE:
            case CUresult.CUDA_ERROR_NVLINK_UNCORRECTABLE:
            case CUresult.CUDA_ERROR_DEVICE_UNAVAILABLE:
            case CUresult.CUDA_ERROR_CONTEXT_IS_DESTROYED:
            case CUresult.CUDA_ERROR_EXTERNAL_DEVICE:
                return true;
            default:
                return false;
        }
    }
}

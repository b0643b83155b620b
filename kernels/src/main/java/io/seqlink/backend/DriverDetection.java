package io.seqlink.backend;

import org.jspecify.annotations.Nullable;

/**
 * The result of looking for a usable CUDA driver, made once per JVM and kept with its first cause
 * (JCuda throws {@code UnsatisfiedLinkError} on the first call without {@code libcuda.so.1} and only
 * {@code NoClassDefFoundError} after that).
 *
 * @param usable      whether a driver and at least one device answered
 * @param summary     one line: driver version and devices, or what is missing
 * @param deviceCount devices found
 * @param cause       the first failure, or {@code null}
 */
public record DriverDetection(boolean usable, String summary, int deviceCount, @Nullable Throwable cause) {

    public static DriverDetection unusable(String summary, @Nullable Throwable cause) {
        return new DriverDetection(false, summary, 0, cause);
    }
}

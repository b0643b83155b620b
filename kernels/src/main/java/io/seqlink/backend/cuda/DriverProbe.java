package io.seqlink.backend.cuda;

import io.seqlink.backend.DriverDetection;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUdevice;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Looks for a usable CUDA driver once per JVM (class initialisation runs once) and keeps the first
 * cause: without {@code libcuda.so.1}, JCuda's first call throws {@link UnsatisfiedLinkError} and
 * every later one only {@link NoClassDefFoundError}, which would hide the reason.
 */
final class DriverProbe {

    static final DriverDetection RESULT = probe();

    private DriverProbe() {
    }

    private static DriverDetection probe() {
        try {
            int r = JCudaDriver.cuInit(0);
            if (r != CUresult.CUDA_SUCCESS) {
                return DriverDetection.unusable("cuInit failed with " + Cu.name(r)
                        + (r == CUresult.CUDA_ERROR_NO_DEVICE ? " (no CUDA device visible)" : ""), null);
            }
            int[] version = new int[1];
            JCudaDriver.cuDriverGetVersion(version);
            int[] count = new int[1];
            r = JCudaDriver.cuDeviceGetCount(count);
            if (r != CUresult.CUDA_SUCCESS || count[0] == 0) {
                return DriverDetection.unusable("CUDA driver " + version(version[0]) + " answered but found no device"
                        + (r != CUresult.CUDA_SUCCESS ? " (" + Cu.name(r) + ")" : ""), null);
            }
            List<String> names = new ArrayList<>();
            for (int d = 0; d < count[0]; d++) {
                CUdevice dev = new CUdevice();
                JCudaDriver.cuDeviceGet(dev, d);
                byte[] name = new byte[256];
                JCudaDriver.cuDeviceGetName(name, name.length, dev);
                int n = 0;
                while (n < name.length && name[n] != 0) {
                    n++;
                }
                names.add(d + "=" + new String(name, 0, n, java.nio.charset.StandardCharsets.US_ASCII));
            }
            return new DriverDetection(true, "CUDA driver " + version(version[0]) + ", " + count[0] + " device(s): "
                    + String.join(", ", names), count[0], null);
        } catch (LinkageError ex) {
            return DriverDetection.unusable("the CUDA driver library could not be loaded (" + essence(ex) + "): no "
                    + "libcuda.so.1 on this host, or JCuda's natives (org.jcuda:jcuda-natives:linux-x86_64) are missing", ex);
        } catch (RuntimeException ex) {
            return DriverDetection.unusable("probing the CUDA driver failed: " + ex, ex);
        }
    }

    /**
     * One line of a loader error: JCuda's message nests whole stack traces; the line that names the
     * missing shared object is the one worth logging (the full cause stays in the detection).
     */
    static String essence(Throwable ex) {
        String message = String.valueOf(ex.getMessage());
        for (String line : message.split("\n")) {
            if (line.contains("cannot open shared object file")) {
                int colon = line.indexOf(": ");
                return ex.getClass().getSimpleName() + ": " + (line.contains(".so: ") ? line.substring(line.indexOf(".so: ") + 5)
                        : colon >= 0 ? line.substring(colon + 2) : line).trim();
            }
        }
        String first = message.split("\n", 2)[0].trim();
        return ex.getClass().getSimpleName() + ": " + first;
    }

    static String version(int v) {
        return (v / 1000) + "." + (v % 1000) / 10;
    }
}

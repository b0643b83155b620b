package io.seqlink.backend.cuda;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * The shared-memory mappings (files another process maps too) this backend made addressable by its devices: each
 * mapping pinned and mapped once ({@code cuMemHostRegister} with {@code PORTABLE | DEVICEMAP}) however many of its parts
 * are in use, and unregistered when the last part is freed. Once, because the driver registers a page only once and a
 * mapping's parts (control block, seats, ring) share pages; portable, so every context of the process addresses it.
 *
 * <p>Thread-safe: both methods hold this object's monitor (never on a frame's path: parts are mapped as a channel
 * opens or attaches and freed as it closes).
 */
final class SharedRegistrations {

    private static final int FLAGS = JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE | JCudaDriver.CU_MEMHOSTREGISTER_DEVICEMAP;

    /** One registered mapping: the context that registered it (and unregisters it) and the parts in use. */
    private static final class Registration {
        final DeviceContext context;
        final Pointer host;
        int parts;

        Registration(DeviceContext context, Pointer host) {
            this.context = context;
            this.host = host;
        }
    }

    private final Map<ByteBuffer, Registration> byMapping = new IdentityHashMap<>();

    /**
     * Registers {@code mapping} if no part of it is in use yet, counts one more part, and returns the mapping's start
     * as {@code context}'s device addresses it.
     *
     * @throws io.seqlink.backend.DeviceException when the driver refuses (the error names the call and the size)
     */
    synchronized long acquire(ByteBuffer mapping, DeviceContext context) {
        Registration r = byMapping.get(mapping);
        boolean registered = false;
        if (r == null) {
            context.bind();
            r = new Registration(context, Pointer.to(mapping));
            Cu.check(JCudaDriver.cuMemHostRegister(r.host, mapping.capacity(), FLAGS), "cuMemHostRegister", context.ordinal(),
                    mapping.capacity() + " bytes of a shared-memory mapping (a file under the channel's share directory)");
            registered = true;
        }
        try {
            context.bind();
            CUdeviceptr base = new CUdeviceptr();
            Cu.check(JCudaDriver.cuMemHostGetDevicePointer(base, r.host, 0), "cuMemHostGetDevicePointer", context.ordinal());
            if (registered) {
                byMapping.put(mapping, r);
            }
            r.parts++;
            return NativePointers.address(base);
        } catch (RuntimeException ex) {
            if (registered) {
                JCudaDriver.cuMemHostUnregister(r.host);
            }
            throw ex;
        }
    }

    /** One part of {@code mapping} fewer in use; the last one unregisters it. Errors are the caller's to log. */
    synchronized void release(ByteBuffer mapping) {
        Registration r = byMapping.get(mapping);
        if (r == null || --r.parts > 0) {
            return;
        }
        byMapping.remove(mapping);
        r.context.bind();
        int result = JCudaDriver.cuMemHostUnregister(r.host);
        if (result != CUresult.CUDA_SUCCESS) {
            throw Cu.error(result, "cuMemHostUnregister", r.context.ordinal(), null);
        }
    }
}

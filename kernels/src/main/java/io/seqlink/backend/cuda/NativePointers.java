package io.seqlink.backend.cuda;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * Reads and writes the native address inside JCuda's pointer objects, so the hot path can reuse one
 * {@link CUdeviceptr} per operand (zero allocation per call) and hand the driver a kernel-parameter
 * array that already lives in native memory (no JNI marshalling of parameter objects).
 *
 * <p>JCuda keeps the address in the private fields {@code NativePointerObject.nativePointer} and
 * {@code Pointer.byteOffset}; its JNI code reads exactly these ({@code getPointer}: nativePointer +
 * byteOffset). JCuda sits on the class path (an unnamed or automatic module), which opens its packages
 * to deep reflection, so private lookup works without command-line flags.
 */
final class NativePointers {

    private static final VarHandle NATIVE_POINTER;
    private static final VarHandle BYTE_OFFSET;

    static {
        try {
            NATIVE_POINTER = MethodHandles.privateLookupIn(NativePointerObject.class, MethodHandles.lookup())
                    .findVarHandle(NativePointerObject.class, "nativePointer", long.class);
            BYTE_OFFSET = MethodHandles.privateLookupIn(Pointer.class, MethodHandles.lookup())
                    .findVarHandle(Pointer.class, "byteOffset", long.class);
        } catch (ReflectiveOperationException | RuntimeException ex) {
            throw new ExceptionInInitializerError("seqlink cannot reach JCuda's pointer fields (JCuda "
                    + "12.6.0 is required; is jcuda on a module path that does not open jcuda?): " + ex);
        }
    }

    private NativePointers() {
    }

    /** The address a JCuda pointer object stands for (native pointer plus byte offset). */
    static long address(NativePointerObject p) {
        long base = (long) NATIVE_POINTER.get(p);
        return p instanceof Pointer ? base + (long) BYTE_OFFSET.get((Pointer) p) : base;
    }

    /** A new host {@link Pointer} to {@code address} (not to a Java buffer). */
    static Pointer hostPointer(long address) {
        Pointer p = new Pointer();
        NATIVE_POINTER.set(p, address);
        return p;
    }

    /** A new device pointer to {@code address}. */
    static CUdeviceptr devicePointer(long address) {
        CUdeviceptr p = new CUdeviceptr();
        NATIVE_POINTER.set(p, address);
        return p;
    }

    /** Points an existing pointer object at {@code address} (byte offset 0); allocation-free. */
    static void repoint(Pointer p, long address) {
        NATIVE_POINTER.set(p, address);
        BYTE_OFFSET.set(p, 0L);
    }
}

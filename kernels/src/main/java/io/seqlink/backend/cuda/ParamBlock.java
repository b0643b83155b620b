package io.seqlink.backend.cuda;

import java.nio.ByteBuffer;
import jcuda.Pointer;

/**
 * One kernel's parameters in pinned host memory:
 * <pre>
 *   0                       8 * MAX_PARAMS              VALUES_AT                               BLOCK_BYTES
 *   +-----------------------+---------------------------+----------------------------------- - - +
 *   | void* params[i] ----------------------------------> value 0 | value 1 | ... (8-aligned)       |
 *   +-----------------------+---------------------------+----------------------------------- - - +
 * </pre>
 * Values are laid out once ({@link #layout(int...)}) from the kernel's parameter sizes; a launch
 * rewrites only the values that change, then passes {@link #kernelParams()}.
 */
final class ParamBlock {

    static final int MAX_PARAMS = 16;
    private static final int VALUES_AT = 8 * MAX_PARAMS;

    private final long address;
    private final ByteBuffer view;
    private final Pointer kernelParams;
    private final int[] valueOffset = new int[MAX_PARAMS];
    private int params;

    ParamBlock(long address, ByteBuffer view) {
        this.address = address;
        this.view = view;
        this.kernelParams = NativePointers.hostPointer(address);
    }

    ByteBuffer view() {
        return view;
    }

    /**
     * Lays out parameters of the given byte sizes in order (each 8-aligned) and fills the pointer
     * array. The count must equal the kernel's: the driver reads one pointer per declared parameter.
     */
    ParamBlock layout(int... sizes) {
        if (sizes.length > MAX_PARAMS) {
            throw new IllegalArgumentException("a kernel may take at most " + MAX_PARAMS + " parameters, got " + sizes.length);
        }
        int at = VALUES_AT;
        for (int i = 0; i < sizes.length; i++) {
            valueOffset[i] = at;
            view.putLong(8 * i, address + at);
            at += (sizes[i] + 7) & ~7;
        }
        if (at > ParamArena.BLOCK_BYTES) {
            throw new IllegalArgumentException("kernel parameters need " + at + " bytes, more than a block's "
                    + ParamArena.BLOCK_BYTES);
        }
        params = sizes.length;
        return this;
    }

    int params() {
        return params;
    }

    /** Byte offset (in {@link #view()}) of parameter {@code index}'s value. */
    int valueOffset(int index) {
        return valueOffset[index];
    }

    void putLong(int index, long value) {
        view.putLong(valueOffset[index], value);
    }

    /** Puts a 64-bit word into a struct parameter at byte {@code offset} of the struct. */
    void putStructWord(int index, int offset, long value) {
        view.putLong(valueOffset[index] + offset, value);
    }

    void putInt(int index, int value) {
        view.putInt(valueOffset[index], value);
    }

    void putFloat(int index, float value) {
        view.putFloat(valueOffset[index], value);
    }

    long getLong(int index) {
        return view.getLong(valueOffset[index]);
    }

    /** The pointer handed to {@code cuLaunchKernel}: its native address is the {@code params[]} array. */
    Pointer kernelParams() {
        return kernelParams;
    }
}

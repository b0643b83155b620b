package io.seqlink.backend.emulated;

import io.seqlink.backend.DeviceBuffer;

/** Emulated device memory: only stream work touches it. */
final class EmulatedDeviceBuffer extends EmulatedMemory implements DeviceBuffer {

    EmulatedDeviceBuffer(EmulatedBackend backend, int device, long address, long bytes) {
        super(backend, device, address, bytes);
    }

    @Override
    public String toString() {
        return "DeviceBuffer[device=" + ownerDevice() + ", 0x" + Long.toHexString(address()) + ", " + bytes() + " B]";
    }
}

package io.seqlink.backend;

/**
 * Device memory: only kernels and copies touch it. The host never reads it directly; it reads the
 * {@link MappedBuffer mirrors} that kernels write.
 */
public interface DeviceBuffer extends Memory {
}

package io.seqlink.backend.emulated;

/** How one ordered device pair behaves in the simulated topology. */
public enum LinkMode {
    /** Peer access with native atomics (NVLink): the fast path. */
    NVLINK,
    /**
     * The driver reports native atomics, but atomics are proxied: slow and serialised, so latency is
     * high and throughput does not grow with threads. Only the probe can tell this from {@link #NVLINK}.
     */
    NVLINK_PROXIED,
    /** Peer access without native atomics (PCIe peer-to-peer): a remote add is a read then a write. */
    PCIE_PEER,
    /** No peer access at all: data must be staged through host memory. */
    HOST_ONLY
}

package io.seqlink.ucx;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Optional;

/**
 * Which network devices UCX may use, from the addresses of a process's bridges. UCX opens listeners of
 * its own for each transport on every device it is allowed ({@code UCX_NET_DEVICES}, default all: with
 * {@code UCX_TLS=tcp} a TCP listener on every interface, whatever address the bridge listens on). Where
 * every bridge address is a loopback one, {@code lo} is the only device the bridges need, and this says
 * so; for other addresses the device depends on the fabric (an Ethernet interface, an RDMA port such as
 * {@code mlx5_0:1}), so the choice is left to {@code UCX_NET_DEVICES} / {@code seqlink.ucx.config.NET_DEVICES}.
 *
 * <p>Pure and thread-safe.
 */
public final class UcxNetDevices {

    /** The UCX setting (without its {@code UCX_} prefix). */
    public static final String SETTING = "NET_DEVICES";

    private UcxNetDevices() {
    }

    /**
     * {@code lo} when every one of {@code addresses} (receivers' listen addresses, senders' peers) is a
     * loopback address; else empty (no address, a wildcard, or an address of another interface).
     */
    public static Optional<String> forAddresses(Collection<InetSocketAddress> addresses) {
        if (addresses.isEmpty()) {
            return Optional.empty();
        }
        for (InetSocketAddress a : addresses) {
            if (a.getAddress() == null || !a.getAddress().isLoopbackAddress()) {
                return Optional.empty();
            }
        }
        return Optional.of("lo");
    }
}

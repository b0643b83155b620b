/** Auto-configuration of the UCX bridges: properties, the transport, the bridge lifecycles, the failure analysis. */
@NullMarked
package io.seqlink.ucx.autoconfigure;

import org.jspecify.annotations.NullMarked;

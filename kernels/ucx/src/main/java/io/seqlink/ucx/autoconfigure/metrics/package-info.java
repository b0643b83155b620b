/** Auto-configuration of the UCX bridges' metrics. */
@NullMarked
package io.seqlink.ucx.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;

/** Auto-configuration of the UCX bridges' health. */
@NullMarked
package io.seqlink.ucx.autoconfigure.health;

import org.jspecify.annotations.NullMarked;

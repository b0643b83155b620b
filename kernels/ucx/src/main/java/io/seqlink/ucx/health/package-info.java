/** Health of the UCX bridges. */
@NullMarked
package io.seqlink.ucx.health;

import org.jspecify.annotations.NullMarked;

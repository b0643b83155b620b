/**
 * The auto-configuration of the seqlink runtime: {@code seqlink.*} properties, their validation,
 * and the runtime bean.
 */
@NullMarked
package io.seqlink.autoconfigure;

import org.jspecify.annotations.NullMarked;

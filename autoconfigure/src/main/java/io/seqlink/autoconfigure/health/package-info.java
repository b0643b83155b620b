/**
 * The auto-configuration of seqlink's health contributor and its status order.
 */
@NullMarked
package io.seqlink.autoconfigure.health;

import org.jspecify.annotations.NullMarked;

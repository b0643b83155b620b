/** Test support for services that use seqlink: device faults and waits for delivery. */
@NullMarked
package io.seqlink.test;

import org.jspecify.annotations.NullMarked;

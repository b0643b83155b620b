/**
 * The auto-configuration of the {@code seqlink} Actuator endpoint.
 */
@NullMarked
package io.seqlink.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;

/**
 * The {@code seqlink} Actuator endpoint: devices, links, channels and consumers.
 */
@NullMarked
package io.seqlink.spring.endpoint;

import org.jspecify.annotations.NullMarked;

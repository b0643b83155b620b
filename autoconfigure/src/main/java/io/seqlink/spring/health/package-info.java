/**
 * Health indicators for the topology and for each channel.
 */
@NullMarked
package io.seqlink.spring.health;

import org.jspecify.annotations.NullMarked;

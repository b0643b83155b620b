/**
 * seqlink's Micrometer meters, one set per channel and consumer.
 */
@NullMarked
package io.seqlink.spring.metrics;

import org.jspecify.annotations.NullMarked;

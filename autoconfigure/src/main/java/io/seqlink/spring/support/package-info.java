/**
 * Helpers the Spring layer shares.
 */
@NullMarked
package io.seqlink.spring.support;

import org.jspecify.annotations.NullMarked;

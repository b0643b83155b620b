/**
 * The sample pipeline service's entry point and its command-line modes.
 */
@NullMarked
package io.seqlink.sample;

import org.jspecify.annotations.NullMarked;

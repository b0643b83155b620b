/**
 * The runtime's entry point: {@link io.seqlink.SeqlinkRuntime} opens a backend, verifies the links
 * the channels need, opens the channels and drives their consumers; Spring-free.
 */
@NullMarked
package io.seqlink;

import org.jspecify.annotations.NullMarked;

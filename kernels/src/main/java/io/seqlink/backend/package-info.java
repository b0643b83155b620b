/**
 * The backend SPI: devices, memory, streams and the channel steps they enqueue, and
 * {@link io.seqlink.backend.Backends}, which opens an implementation found through
 * {@link io.seqlink.backend.BackendProvider} without naming one.
 */
@NullMarked
package io.seqlink.backend;

import org.jspecify.annotations.NullMarked;

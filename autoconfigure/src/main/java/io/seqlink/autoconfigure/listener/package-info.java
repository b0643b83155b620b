/**
 * The auto-configuration of {@code @ChannelListener} methods and their registry.
 */
@NullMarked
package io.seqlink.autoconfigure.listener;

import org.jspecify.annotations.NullMarked;

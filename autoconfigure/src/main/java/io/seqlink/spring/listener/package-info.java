/**
 * {@code @ChannelListener}: annotated methods bound to consumer ports, and the registry that starts
 * and drains them with the application context.
 */
@NullMarked
package io.seqlink.spring.listener;

import org.jspecify.annotations.NullMarked;

/**
 * Micrometer observations of seqlink channels: a {@code seqlink.publish} observation around a sampled frame's publish,
 * whose trace context the frame carries in its header, and a {@code seqlink.process} observation around the
 * {@code @ChannelListener} call that continues it (like spring-kafka's {@code observationEnabled}).
 */
@NullMarked
package io.seqlink.spring.observation;

import org.jspecify.annotations.NullMarked;

/**
 * The auto-configuration of one {@code PublishChannel} bean per configured channel.
 */
@NullMarked
package io.seqlink.autoconfigure.channel;

import org.jspecify.annotations.NullMarked;

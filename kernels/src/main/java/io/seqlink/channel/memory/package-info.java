/**
 * The lifetime of a channel's device and pinned memory: {@link io.seqlink.channel.memory.MemoryGuard}, which every
 * thread that touches the memory enters, so the memory is freed only once nobody can reach it.
 */
@NullMarked
package io.seqlink.channel.memory;

import org.jspecify.annotations.NullMarked;

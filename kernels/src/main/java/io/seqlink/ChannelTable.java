package io.seqlink;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.InvalidChannelSpecException;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The runtime's channels by name, with the names of channels being opened reserved: a name is taken
 * (atomically, before anything is allocated) by {@link #reserve}, then either {@link #install}ed with
 * its channel or given back. Once the table is closed nothing more is reserved or installed. Safe from
 * any thread; one monitor.
 */
final class ChannelTable {

    /** The placeholder of a name whose channel is being opened. */
    private static final Object RESERVED = new Object();

    private final Map<String, Object> byName = new LinkedHashMap<>();
    private boolean closed;

    synchronized boolean taken(String name) {
        return name != null && byName.containsKey(name);
    }

    /** Takes {@code spec}'s name for an open in progress, or throws what a second open of the name gets. */
    synchronized void reserve(ChannelSpec spec) {
        if (closed) {
            throw new IllegalStateException("the seqlink runtime is closed");
        }
        if (byName.containsKey(spec.name())) {
            throw new InvalidChannelSpecException(spec.name(), List.of(nameTaken(spec, "")));
        }
        byName.put(spec.name(), RESERVED);
    }

    /** Puts the opened channel under its reserved name; false when the table closed meanwhile. */
    synchronized boolean install(PublishChannel channel) {
        if (closed) {
            return false;
        }
        byName.put(channel.name(), channel);
        return true;
    }

    /** Gives a reserved name back (the open failed, or the table closed). */
    synchronized void unreserve(String name) {
        byName.remove(name, RESERVED);
        notifyAll();
    }

    /** A closed channel gives its name back, so a channel of the same name can be opened again. */
    synchronized void remove(PublishChannel channel) {
        byName.remove(channel.name(), channel);
    }

    synchronized List<PublishChannel> channels() {
        List<PublishChannel> open = new ArrayList<>();
        for (Object o : byName.values()) {
            if (o instanceof PublishChannel ch) {
                open.add(ch);
            }
        }
        return open;
    }

    synchronized Optional<PublishChannel> channel(String name) {
        return byName.get(name) instanceof PublishChannel ch ? Optional.of(ch) : Optional.empty();
    }

    /**
     * Closes the table and waits up to {@code timeoutNanos} for the opens in progress to end (each then
     * closes its own channel). False when it was closed already. Keeps an interrupt and stops waiting.
     */
    synchronized boolean close(long timeoutNanos) {
        if (closed) {
            return false;
        }
        closed = true;
        long until = System.nanoTime() + timeoutNanos;
        while (byName.containsValue(RESERVED) && System.nanoTime() - until < 0) {
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return true;
    }

    synchronized boolean closed() {
        return closed;
    }

    static Violation nameTaken(ChannelSpec spec, String prefix) {
        return new Violation(prefix + "name", "a channel named '" + spec.name() + "' is already open",
                "give each channel its own name");
    }
}

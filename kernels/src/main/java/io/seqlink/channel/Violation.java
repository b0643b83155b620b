package io.seqlink.channel;

/**
 * One thing wrong with a configuration: the property or argument, what is wrong, and what to do.
 *
 * @param property the property or argument, e.g. {@code channels.frames.slots}
 * @param problem  what is wrong, with the offending value
 * @param fix      what to set instead
 */
public record Violation(String property, String problem, String fix) {

    @Override
    public String toString() {
        return property + ": " + problem + ". Fix: " + fix + ".";
    }
}

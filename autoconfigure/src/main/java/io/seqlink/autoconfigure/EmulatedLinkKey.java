package io.seqlink.autoconfigure;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A key of {@code seqlink.emulated.links} or {@code seqlink.emulated.latency}: {@code a-b} for both
 * directions between devices a and b, {@code a-to-b} for device a reaching device b's memory.
 *
 * @param accessor     the first device
 * @param owner        the second device
 * @param bidirectional whether the key names both directions
 */
record EmulatedLinkKey(int accessor, int owner, boolean bidirectional) {

    private static final Pattern KEY = Pattern.compile("(\\d{1,2})-(to-)?(\\d{1,2})");

    /** The parsed key, or {@code null} when it is not of either form. */
    static @Nullable EmulatedLinkKey parse(@Nullable String key) {
        if (key == null) {
            return null;
        }
        Matcher m = KEY.matcher(key.trim().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches()) {
            return null;
        }
        return new EmulatedLinkKey(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(3)), m.group(2) == null);
    }
}

package io.seqlink.autoconfigure;

import io.seqlink.channel.Violation;
import io.seqlink.launcher.LauncherSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link SeqlinkProperties} before anything is opened and lists every problem at once, each
 * under its full property name ({@code seqlink.channels.frames.slots}) with what to set instead.
 * Device references are checked later against the devices the backend really has.
 */
public final class SeqlinkPropertiesValidator {

    /** Health and metrics use this name for the topology; a channel may not take it. */
    public static final String RESERVED_CHANNEL_NAME = "topology";

    private static final Pattern SIMPLE_KEY = Pattern.compile("[a-z0-9][a-z0-9-]*");
    /** The channel names the runtime accepts ({@code ChannelSpec}'s rule), for the attached ones. */
    private static final Pattern CHANNEL_NAME = Pattern.compile("[A-Za-z0-9_-]{1," + io.seqlink.channel.ChannelSpec.MAX_NAME_LENGTH + "}");

    private SeqlinkPropertiesValidator() {
    }

    /** Everything wrong with {@code properties}, in property order. */
    public static List<Violation> validate(SeqlinkProperties properties) {
        List<Violation> v = new ArrayList<>();
        topology(properties.topology(), v);
        verify(properties.verify(), v);
        emulated(properties.emulated(), v);
        latency(properties.metrics().latency(), v);
        sameNameButCase(properties.channels().keySet(), "seqlink.channels", v);
        properties.channels().forEach((name, channel) -> channel(name, channel, v));
        sameNameButCase(properties.attach().keySet(), "seqlink.attach", v);
        properties.attach().forEach((name, attach) -> attach(name, attach, properties.channels().keySet(), v));
        launcher(properties.launcher(), v);
        retry(properties.listener().retry(), v);
        health(properties.health(), v);
        nonNegative("seqlink.shutdown.drain-timeout", properties.shutdown().drainTimeout(), "e.g. 10s", v);
        observation(properties, v);
        return v;
    }

    /** The property prefix of channel {@code name}, ending in a dot: bracketed when the name is not a plain key. */
    public static String channelPrefix(String name) {
        return SIMPLE_KEY.matcher(String.valueOf(name)).matches() ? "seqlink.channels." + name + "."
                : "seqlink.channels[" + name + "].";
    }

    /** The property prefix of attached channel {@code name}, ending in a dot: bracketed when the name is not a plain key. */
    public static String attachPrefix(String name) {
        return SIMPLE_KEY.matcher(String.valueOf(name)).matches() ? "seqlink.attach." + name + "."
                : "seqlink.attach[" + name + "].";
    }

    private static void topology(SeqlinkProperties.Topology t, List<Violation> v) {
        Set<Integer> seen = new HashSet<>();
        for (Integer d : t.devices()) {
            if (d == null || d < 0) {
                v.add(new Violation("seqlink.topology.devices", "device " + d + " is not a device ordinal",
                        "list device ordinals of 0 or more, e.g. [0, 1], or leave it empty to use every device"));
            } else if (!seen.add(d)) {
                v.add(new Violation("seqlink.topology.devices", "device " + d + " is listed twice", "list each device once"));
            }
        }
        notNull("seqlink.topology.required-link-class", t.requiredLinkClass(), "peer-atomic, peer-copy or host-staged", v);
        notNull("seqlink.topology.on-unsupported", t.onUnsupported(), "fail, fallback or warn", v);
    }

    private static void verify(SeqlinkProperties.Verify verify, List<Violation> v) {
        positive("seqlink.verify.max-atomic-latency", verify.maxAtomicLatency(), "e.g. 3us", v);
        if (verify.minScalingRatio() < 0 || Double.isNaN(verify.minScalingRatio())) {
            v.add(new Violation("seqlink.verify.min-scaling-ratio", "min scaling ratio is " + verify.minScalingRatio(),
                    "set a ratio of 0 or more, e.g. 1.0"));
        }
        positive("seqlink.verify.timeout", verify.timeout(), "e.g. 10s", v);
    }

    private static void latency(SeqlinkProperties.Latency l, List<Violation> v) {
        positive("seqlink.metrics.latency.minimum-expected", l.minimumExpected(), "e.g. 1us", v);
        positive("seqlink.metrics.latency.maximum-expected", l.maximumExpected(), "e.g. 1s", v);
        if (l.minimumExpected() != null && l.maximumExpected() != null && l.maximumExpected().compareTo(l.minimumExpected()) <= 0) {
            v.add(new Violation("seqlink.metrics.latency.maximum-expected", "maximum expected " + l.maximumExpected()
                    + " is not above minimum expected " + l.minimumExpected(), "set it above minimum-expected, e.g. 1s"));
        }
        for (Duration b : l.sloBoundaries()) {
            positive("seqlink.metrics.latency.slo-boundaries", b, "list positive durations, e.g. 10us,100us,1ms", v);
        }
    }

    private static void observation(SeqlinkProperties properties, List<Violation> v) {
        properties.observation().channels().forEach((name, c) -> {
            String prefix = SIMPLE_KEY.matcher(String.valueOf(name)).matches() ? "seqlink.observation.channels." + name + "."
                    : "seqlink.observation.channels[" + name + "].";
            if (!properties.channels().containsKey(name) && !properties.attach().containsKey(name)) {
                v.add(new Violation(prefix + "enabled", "'" + name + "' is no channel of seqlink.channels or seqlink.attach",
                        "name a configured channel" + nearest(name, properties) + ", or remove the entry"));
            }
            double p = c.samplingProbability();
            if (!(p >= 0 && p <= 1)) {
                v.add(new Violation(prefix + "sampling-probability", "sampling probability is " + p,
                        "set a fraction from 0 to 1, e.g. 0.01 to observe one frame in a hundred"));
            }
        });
    }

    private static String nearest(String name, SeqlinkProperties properties) {
        Set<String> names = new java.util.LinkedHashSet<>(properties.channels().keySet());
        names.addAll(properties.attach().keySet());
        return names.isEmpty() ? "" : " (" + String.join(", ", names) + ")";
    }

    private static void emulated(SeqlinkProperties.Emulated e, List<Violation> v) {
        int count = e.deviceCount();
        if (count < 1 || count > 64) {
            v.add(new Violation("seqlink.emulated.device-count", "device count is " + count + ", outside 1 to 64",
                    "set device-count between 1 and 64, e.g. 2"));
        }
        e.links().forEach((key, mode) -> {
            String property = "seqlink.emulated.links." + key;
            linkKey(property, key, count, v);
            notNull(property, mode, "nvlink, nvlink-proxied, pcie-peer or host-only", v);
        });
        e.latency().forEach((key, latency) -> {
            String property = "seqlink.emulated.latency." + key;
            EmulatedLinkKey k = linkKey(property, key, count, v);
            if (k != null && !k.bidirectional()) {
                v.add(new Violation(property, "latency is set per device pair, not per direction",
                        "name the pair as 'a-b', e.g. " + k.accessor() + "-" + k.owner()));
            }
            nonNegative(property, latency, "e.g. 2us", v);
        });
        notNull("seqlink.emulated.stream-mode", e.streamMode(), "inline or threaded", v);
    }

    private static @Nullable EmulatedLinkKey linkKey(String property, String key, int deviceCount, List<Violation> v) {
        EmulatedLinkKey k = EmulatedLinkKey.parse(key);
        if (k == null) {
            v.add(new Violation(property, "'" + key + "' does not name a device pair",
                    "use 'a-b' for both directions between devices a and b, or 'a-to-b' for device a reaching device b's memory, e.g. 0-1"));
            return null;
        }
        if (k.accessor() == k.owner()) {
            v.add(new Violation(property, "'" + key + "' links device " + k.accessor() + " with itself",
                    "name two different devices; a device always reaches its own memory natively"));
        }
        for (int d : new int[] {k.accessor(), k.owner()}) {
            if (d >= deviceCount) {
                v.add(new Violation(property, "device " + d + " does not exist: the emulated machine has " + deviceCount
                        + " device(s)", "name devices between 0 and " + (deviceCount - 1)
                        + ", or raise seqlink.emulated.device-count"));
            }
        }
        return k;
    }

    /**
     * Channel names that differ only in case ({@code orders}, {@code Orders}): Spring Boot matches property names
     * ignoring case, so both channels would be bound from the same keys and open with one of them's settings.
     */
    private static void sameNameButCase(Set<String> names, String group, List<Violation> v) {
        Map<String, String> firstByLowerCase = new LinkedHashMap<>();
        for (String name : names) {
            String first = firstByLowerCase.putIfAbsent(String.valueOf(name).toLowerCase(Locale.ROOT), name);
            if (first != null) {
                String prefix = group.equals("seqlink.attach") ? attachPrefix(name) : channelPrefix(name);
                v.add(new Violation(prefix.substring(0, prefix.length() - 1), "channels '" + first
                        + "' and '" + name + "' differ only in case: Spring Boot matches property names ignoring case, "
                        + "so both would be bound from the same keys and open with the settings of one of them",
                        "give the channels names that differ in more than case, e.g. '" + first + "' and '" + name
                        + "-2'"));
            }
        }
    }

    private static void channel(String name, SeqlinkProperties.Channel channel, List<Violation> v) {
        String prefix = channelPrefix(name);
        if (channel == null) {
            v.add(new Violation(prefix.substring(0, prefix.length() - 1), "the channel has no settings",
                    "set at least its consumers, e.g. consumers: [1]"));
            return;
        }
        if (RESERVED_CHANNEL_NAME.equals(name)) {
            v.add(new Violation(prefix + "name", "the channel name '" + name + "' is reserved: health reports the "
                    + "topology under it", "rename the channel, e.g. 'topology-events'"));
        }
        SeqlinkProperties.Share share = channel.share();
        if (share != null && share.enabled()) {
            share(prefix + "share.", share, v);
        }
        v.addAll(channel.toSpec(name, List.of(), share == null ? null : ShareSettings.shareToValidate(share)).validate(prefix));
    }

    private static void share(String prefix, SeqlinkProperties.Share s, List<Violation> v) {
        v.addAll(ShareSettings.checkSecretFile(prefix + "secret-file", s.secretFile()));
        if (s.seats() < 1 || s.seats() > io.seqlink.channel.ChannelShare.MAX_SEATS) {
            v.add(new Violation(prefix + "seats", "seats is " + s.seats() + ", outside 1 to " + io.seqlink.channel.ChannelShare.MAX_SEATS,
                    "set seats between 1 and " + io.seqlink.channel.ChannelShare.MAX_SEATS + " (default "
                            + io.seqlink.channel.ChannelShare.DEFAULT_SEATS + ")"));
        }
        if (s.heartbeat() != null) {
            positive(prefix + "heartbeat", s.heartbeat(), "e.g. 500ms, or leave it unset for a tenth of the stall timeout", v);
        }
        positive(prefix + "handshake-timeout", s.handshakeTimeout(), "e.g. 5s", v);
    }

    private static void attach(String name, SeqlinkProperties.Attach a, Set<String> local, List<Violation> v) {
        String prefix = attachPrefix(name);
        String group = prefix.substring(0, prefix.length() - 1);
        if (a == null) {
            v.add(new Violation(group, "the attached channel has no settings",
                    "set at least its secret-file (and its directory unless the producer uses the default)"));
            return;
        }
        if (name == null || !CHANNEL_NAME.matcher(name).matches()) {
            v.add(new Violation(group, "channel name '" + name + "' is not 1 to " + io.seqlink.channel.ChannelSpec.MAX_NAME_LENGTH
                    + " letters, digits, '-' or '_'", "use the producer's channel name"));
        }
        for (String l : local) {
            if (String.valueOf(l).equalsIgnoreCase(String.valueOf(name))) {
                v.add(new Violation(group, "channel '" + name + "' is declared both here and as a channel of this process ("
                        + channelPrefix(l).substring(0, channelPrefix(l).length() - 1) + "): a @ChannelListener could not tell "
                        + "which it listens on", "remove one of them: seqlink.channels." + l + " when another process produces "
                        + "the channel, seqlink.attach." + name + " when this process does"));
            }
        }
        v.addAll(ShareSettings.checkSecretFile(prefix + "secret-file", a.secretFile()));
        if (a.device() < 0) {
            v.add(new Violation(prefix + "device", "device " + a.device() + " is not a device ordinal",
                    "set a device of this process, 0 or more (default 0)"));
        }
        if (a.stallTimeout() != null) {
            positive(prefix + "stall-timeout", a.stallTimeout(), "e.g. 5s, or leave it unset for the producer's", v);
        }
        positive(prefix + "connect-timeout", a.connectTimeout(), "e.g. 10s", v);
        if (a.reattachInterval() == null || a.reattachInterval().isNegative()) {
            v.add(new Violation(prefix + "reattach-interval", "it is " + (a.reattachInterval() == null ? "not set" : "negative"),
                    "set how often to attach again once the channel failed, e.g. 1s (the default), or 0 never to"));
        }
    }

    private static void launcher(SeqlinkProperties.Launcher l, List<Violation> v) {
        notNull("seqlink.launcher.idle-strategy", l.idleStrategy(), "backoff, low-latency, busy-spin, yield or park", v);
        if (l.batchSize() < 1 || l.batchSize() > LauncherSettings.MAX_BATCH_SIZE) {
            v.add(new Violation("seqlink.launcher.batch-size", "batch size is " + l.batchSize() + ", outside 1 to "
                    + LauncherSettings.MAX_BATCH_SIZE, "set batch-size between 1 and " + LauncherSettings.MAX_BATCH_SIZE
                    + " (default " + LauncherSettings.DEFAULT_BATCH_SIZE + ")"));
        }
        positive("seqlink.launcher.watchdog-period", l.watchdogPeriod(), "e.g. 100ms", v);
    }

    private static void retry(SeqlinkProperties.Retry r, List<Violation> v) {
        if (r.maxAttempts() < 1) {
            v.add(new Violation("seqlink.listener.retry.max-attempts", "max attempts is " + r.maxAttempts(),
                    "set max-attempts to 1 or more (1: no retry)"));
        }
        if (r.multiplier() < 1 || Double.isNaN(r.multiplier())) {
            v.add(new Violation("seqlink.listener.retry.multiplier", "multiplier is " + r.multiplier(),
                    "set a multiplier of 1 or more, e.g. 2.0"));
        }
        boolean initialOk = nonNegative("seqlink.listener.retry.initial-backoff", r.initialBackoff(), "e.g. 10ms", v);
        boolean maxOk = nonNegative("seqlink.listener.retry.max-backoff", r.maxBackoff(), "e.g. 1s", v);
        if (initialOk && maxOk && r.maxBackoff().compareTo(r.initialBackoff()) < 0) {
            v.add(new Violation("seqlink.listener.retry.max-backoff", "max backoff " + r.maxBackoff()
                    + " is shorter than the initial backoff " + r.initialBackoff(),
                    "set max-backoff to at least initial-backoff"));
        }
    }

    private static void health(SeqlinkProperties.Health h, List<Violation> v) {
        double t = h.lagThreshold();
        if (!(t > 0 && t <= 1)) {
            v.add(new Violation("seqlink.health.lag-threshold", "lag threshold is " + t + ", outside (0, 1]",
                    "set a fraction of the ring above 0 and at most 1, e.g. 0.75"));
        }
    }

    private static void notNull(String property, Object value, String choices, List<Violation> v) {
        if (value == null) {
            v.add(new Violation(property, "it is not set", "set it to " + choices));
        }
    }

    private static boolean positive(String property, Duration d, String example, List<Violation> v) {
        if (d == null || d.isNegative() || d.isZero()) {
            v.add(new Violation(property, d == null ? "it is not set" : "the duration is " + written(d) + ", which is "
                    + (d.isZero() ? "zero" : "negative") + ": it must be positive", "set a positive duration, " + example));
            return false;
        }
        return true;
    }

    private static boolean nonNegative(String property, Duration d, String example, List<Violation> v) {
        if (d == null || d.isNegative()) {
            v.add(new Violation(property, d == null ? "it is not set" : "the duration is " + written(d)
                    + ", which is negative: it must be 0 or more", "set a duration of 0 or more, " + example));
            return false;
        }
        return true;
    }

    /** A duration as a configuration writes it ({@code -1s}, {@code 500ms}, {@code 3us}), not as ISO-8601 ({@code PT-1S}). */
    static String written(Duration d) {
        if (d.getNano() == 0 || Math.abs(d.getSeconds()) > 1_000_000_000L) {
            return d.getSeconds() + "s";
        }
        long nanos = d.toNanos();
        return nanos % 1_000_000 == 0 ? nanos / 1_000_000 + "ms" : nanos % 1_000 == 0 ? nanos / 1_000 + "us" : nanos + "ns";
    }

    /** {@code violations} with every property name that lacks it prefixed by {@code seqlink.}. */
    static List<Violation> qualified(List<Violation> violations) {
        List<Violation> out = new ArrayList<>(violations.size());
        for (Violation x : violations) {
            String p = x.property();
            out.add(p != null && !p.startsWith("seqlink.") && !p.startsWith("seqlink[") && !p.startsWith("@")
                    ? new Violation("seqlink." + p, x.problem(), x.fix()) : x);
        }
        return out;
    }
}

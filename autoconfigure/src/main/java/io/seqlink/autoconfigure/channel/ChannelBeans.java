package io.seqlink.autoconfigure.channel;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkProperties;
import io.seqlink.channel.PublishChannel;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.core.env.Environment;

/** The factory method and the names behind the channel bean definitions. Stateless; safe from any thread. */
public final class ChannelBeans {

    /** The bean definition attribute that holds the channel's name on every channel bean definition. */
    public static final String CHANNEL_ATTRIBUTE = "seqlink.channel";

    private ChannelBeans() {
    }

    /**
     * The names under {@code seqlink.channels} in {@code environment}, in configuration order. Only the names are
     * read: a value that does not bind is the configuration check's to report.
     */
    public static List<String> configuredNames(Environment environment) {
        Map<String, SeqlinkProperties.Channel> channels = Binder.get(environment)
                .bind("seqlink.channels", Bindable.mapOf(String.class, SeqlinkProperties.Channel.class),
                        new IgnoreErrorsBindHandler())
                .orElse(Map.of());
        return List.copyOf(channels.keySet());
    }

    /** The bean name of channel {@code name} when another bean has taken the channel's own name. */
    public static String fallbackBeanName(String name) {
        return "seqlink.channels." + name;
    }

    /**
     * The channel {@code name} of {@code runtime}; the auto-configured runtime opened it at startup.
     *
     * @throws IllegalStateException when the runtime has no such channel (an application's own runtime that
     *                               did not open the configured channel)
     */
    public static PublishChannel channel(SeqlinkRuntime runtime, String name) {
        return runtime.channel(name).orElseThrow(() -> new IllegalStateException("the SeqlinkRuntime bean has no channel '"
                + name + "' although seqlink.channels." + name + " is configured; open it in your SeqlinkRuntime bean, "
                + "or let seqlink auto-configure the runtime"));
    }
}

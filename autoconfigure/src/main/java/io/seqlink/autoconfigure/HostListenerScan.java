package io.seqlink.autoconfigure;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.spring.listener.ChannelListener;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Which consumers of which channel have a host listener ({@code @ChannelListener} methods taking a {@link Frame} or a
 * {@code List<Frame>}), read from the bean definitions before any listener bean is made. The runtime opens its
 * channels first, and a lossless channel's producer pushes a consumer's frames into host memory, where its host
 * listener reads them in place, only when the channel knew as it opened ({@link ChannelSpec#hostListeners}). A bean
 * whose class is not known until it is made (a {@code @Bean} method declared to return an interface, a factory bean)
 * is not seen: its host listener gets its frames staged by its consumer's stream, correct and slower. Runs once, on the
 * thread that makes the runtime bean.
 */
final class HostListenerScan {

    private HostListenerScan() {
    }

    /** Channel name to the devices its host listeners name ({@link ChannelListener#ALL_DEVICES} for every consumer). */
    static Map<String, Set<Integer>> scan(ConfigurableListableBeanFactory beanFactory) {
        Map<String, Set<Integer>> hosts = new TreeMap<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type;
            try {
                type = beanFactory.getType(name, false); // never makes the bean
            } catch (RuntimeException unknown) {
                continue;
            }
            if (type == null) {
                continue;
            }
            ReflectionUtils.doWithMethods(ClassUtils.getUserClass(type), m -> {
                ChannelListener a = AnnotatedElementUtils.findMergedAnnotation(m, ChannelListener.class);
                if (a == null || !takesHostFrames(m)) {
                    return;
                }
                String channel = a.channel().contains("${") ? beanFactory.resolveEmbeddedValue(a.channel()) : a.channel();
                if (StringUtils.hasText(channel)) {
                    hosts.computeIfAbsent(channel, c -> new TreeSet<>()).add(a.device());
                }
            });
        }
        return hosts;
    }

    /** The consumers of {@code consumers} that {@code devices} (from {@link #scan}) name. */
    static List<Integer> consumersNamed(Set<Integer> devices, List<Integer> consumers) {
        if (devices.contains(ChannelListener.ALL_DEVICES)) {
            return consumers;
        }
        return consumers.stream().filter(devices::contains).toList();
    }

    private static boolean takesHostFrames(Method m) {
        boolean frames = false;
        for (Class<?> p : m.getParameterTypes()) {
            if (p == DeviceFrames.class) {
                return false;
            }
            frames |= p == Frame.class || p == List.class;
        }
        return frames;
    }
}

package io.seqlink.spring.listener;

import io.seqlink.SeqlinkConfigurationException;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.Violation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link ChannelListener} methods on beans, checks their signatures, and hands them to the
 * {@link ChannelListenerEndpointRegistry} once every singleton exists. A bad signature, an unknown
 * channel or device, or two listeners on one consumer fails startup with a report naming each
 * method and what to change.
 */
public class ChannelListenerAnnotationBeanPostProcessor implements BeanPostProcessor, SmartInitializingSingleton,
        BeanFactoryAware, Ordered {

    private final Set<Class<?>> withoutListeners = ConcurrentHashMap.newKeySet();
    private final List<ChannelListenerEndpoint> pending = new ArrayList<>();
    private @Nullable BeanFactory beanFactory;
    /** Set once the singletons are instantiated; listeners found before then wait in {@link #pending}. */
    private volatile @Nullable ChannelListenerEndpointRegistry registry;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory;
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> target = AopProxyUtils.ultimateTargetClass(bean);
        if (withoutListeners.contains(target) || target.getName().startsWith("org.springframework.")) {
            return bean;
        }
        Map<Method, ChannelListener> methods = MethodIntrospector.selectMethods(target,
                (MethodIntrospector.MetadataLookup<ChannelListener>) m -> AnnotatedElementUtils.findMergedAnnotation(m,
                        ChannelListener.class));
        if (methods.isEmpty()) {
            withoutListeners.add(target);
            return bean;
        }
        List<ChannelListenerEndpoint> endpoints = new ArrayList<>();
        List<Violation> problems = new ArrayList<>();
        methods.forEach((method, annotation) -> {
            ChannelListenerEndpoint ep = endpoint(bean, beanName, method, annotation, problems);
            if (ep != null) {
                endpoints.add(ep);
            }
        });
        if (!problems.isEmpty()) {
            throw new SeqlinkConfigurationException(problems);
        }
        ChannelListenerEndpointRegistry r = registry;
        if (r != null) {
            r.registerAll(endpoints); // a bean created after startup (lazy): bind now
        } else {
            synchronized (pending) {
                pending.addAll(endpoints);
            }
        }
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        BeanFactory factory = Objects.requireNonNull(beanFactory, "Spring calls setBeanFactory before afterSingletonsInstantiated");
        ChannelListenerEndpointRegistry r = factory.getBean(ChannelListenerEndpointRegistry.class);
        List<ChannelListenerEndpoint> endpoints;
        synchronized (pending) {
            endpoints = List.copyOf(pending);
            pending.clear();
        }
        r.registerAll(endpoints);
        registry = r;
    }

    private @Nullable ChannelListenerEndpoint endpoint(Object bean, String beanName, Method method, ChannelListener annotation,
            List<Violation> problems) {
        String where = "@ChannelListener on " + method.getDeclaringClass().getName() + "." + method.getName();
        String channel = resolve(annotation.channel());
        if (!StringUtils.hasText(channel)) {
            problems.add(new Violation(where, "no channel is named", "set channel, e.g. @ChannelListener(channel = \"frames\")"));
            return null;
        }
        if (annotation.device() < ChannelListener.ALL_DEVICES) {
            problems.add(new Violation(where, "device " + annotation.device() + " is not a device ordinal",
                    "set device to a consumer device of channel '" + channel + "', or leave it out to listen on every consumer"));
        }
        if (Modifier.isStatic(method.getModifiers())) {
            problems.add(new Violation(where, "the method is static", "make it an instance method of the bean"));
            return null;
        }
        Class<?>[] types = method.getParameterTypes();
        int dataIndex = -1;
        int contextIndex = -1;
        ChannelListenerEndpoint.Kind kind = null;
        for (int i = 0; i < types.length; i++) {
            ChannelListenerEndpoint.Kind k = null;
            if (types[i] == Frame.class) {
                k = ChannelListenerEndpoint.Kind.FRAME;
            } else if (types[i] == DeviceFrames.class) {
                k = ChannelListenerEndpoint.Kind.DEVICE;
            } else if (List.class.isAssignableFrom(types[i]) && types[i].isAssignableFrom(List.class)
                    && isFrameList(method, i)) {
                k = ChannelListenerEndpoint.Kind.BATCH;
            } else if (types[i] == ListenerContext.class) {
                if (contextIndex >= 0) {
                    problems.add(new Violation(where, "it takes two ListenerContext parameters", "take at most one"));
                    return null;
                }
                contextIndex = i;
                continue;
            }
            if (k == null) {
                problems.add(new Violation(where, "parameter " + (i + 1) + " has type " + method.getGenericParameterTypes()[i]
                        .getTypeName() + ", which seqlink cannot supply", "take a Frame, a List<Frame> or a DeviceFrames, "
                        + "optionally with a ListenerContext, and nothing else"));
                return null;
            }
            if (dataIndex >= 0) {
                problems.add(new Violation(where, "it takes more than one of Frame, List<Frame> and DeviceFrames",
                        "take exactly one of them"));
                return null;
            }
            dataIndex = i;
            kind = k;
        }
        if (kind == null) {
            problems.add(new Violation(where, "it takes no Frame, List<Frame> or DeviceFrames parameter",
                    "add one, e.g. void onFrame(Frame frame)"));
            return null;
        }
        if (kind != ChannelListenerEndpoint.Kind.DEVICE
                && (annotation.armedRounds() || annotation.acknowledgesInKernel() || annotation.consumesInKernel())) {
            problems.add(new Violation(where, (annotation.armedRounds() ? "armedRounds"
                    : annotation.acknowledgesInKernel() ? "acknowledgesInKernel" : "consumesInKernel")
                    + " is set on a listener that takes no DeviceFrames", "remove it, or take a DeviceFrames and enqueue "
                    + "device work (both describe what a device listener's kernels do)"));
            return null;
        }
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        String id = StringUtils.hasText(annotation.id()) ? resolve(annotation.id()) : beanName + "." + method.getName();
        return new ChannelListenerEndpoint(id, beanName, bean, invocable, channel, annotation.device(), kind, contextIndex,
                dataIndex, annotation.armedRounds(), annotation.acknowledgesInKernel(), annotation.consumesInKernel());
    }

    private static boolean isFrameList(Method method, int index) {
        ResolvableType element = ResolvableType.forMethodParameter(method, index).asCollection().getGeneric(0);
        Class<?> resolved = element.resolve();
        return resolved == null || resolved == Frame.class || resolved == Object.class;
    }

    private String resolve(String value) {
        if (beanFactory instanceof ConfigurableBeanFactory cbf && value != null && value.contains("${")) {
            String resolved = cbf.resolveEmbeddedValue(value);
            return resolved == null ? value : resolved;
        }
        return value;
    }
}

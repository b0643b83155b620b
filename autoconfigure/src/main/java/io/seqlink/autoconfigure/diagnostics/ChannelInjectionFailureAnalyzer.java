package io.seqlink.autoconfigure.diagnostics;

import io.seqlink.autoconfigure.NearestName;
import io.seqlink.autoconfigure.UnknownProperties;
import io.seqlink.autoconfigure.channel.ChannelBeans;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.Violation;
import java.lang.annotation.Annotation;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InjectionPoint;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Reports an application bean that injects a seqlink channel that is not there: a
 * {@code @Qualifier("orders") PublishChannel} after the channel was renamed in the configuration, or a
 * {@code PublishChannel} without a qualifier beside several channels. Names the channels that are
 * configured and the nearest one, in place of Spring's generic "consider defining a bean". Ordered
 * before Boot's analyzer of the same exception.
 */
class ChannelInjectionFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> implements Ordered {

    private final Environment environment;

    ChannelInjectionFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        ResolvableType type = cause.getResolvableType();
        Class<?> wanted = type != null ? type.resolve() : cause.getBeanType();
        if (wanted == null || !PublishChannel.class.isAssignableFrom(wanted)) {
            return null;
        }
        InjectionPoint injectionPoint = injectionPoint(rootFailure);
        String qualifier = qualifier(injectionPoint);
        String where = injectionPoint == null ? "A bean" : describe(injectionPoint);
        List<String> channels = ChannelBeans.configuredNames(environment);
        if (!environment.getProperty("seqlink.enabled", Boolean.class, true)) {
            return new FailureAnalysis(where + " needs a seqlink channel" + (qualifier == null ? "" : " '" + qualifier + "'")
                    + ", but seqlink is disabled (seqlink.enabled=false), so there are no channel beans.",
                    "Remove seqlink.enabled=false, or leave the channel out of this bean.", cause);
        }
        if (qualifier == null) {
            String description = where + " needs a seqlink channel (a PublishChannel) without naming it, and "
                    + (channels.isEmpty() ? "no channel is configured under seqlink.channels."
                            : cause instanceof NoUniqueBeanDefinitionException ? "there are " + channels.size()
                                    + " channels " + channels + "." : "there is no channel of that kind.")
                    + unknownKeys();
            String action = channels.isEmpty() ? capitalized(configure("frames"))
                    : "Name the channel where it is injected, e.g. @Qualifier(\"" + channels.get(0) + "\") PublishChannel "
                            + channels.get(0).replace("-", "") + ".";
            return new FailureAnalysis(description, action, cause);
        }
        String description = where + " needs the seqlink channel '" + qualifier + "' (@Qualifier(\"" + qualifier
                + "\") PublishChannel), but there is no channel of that name: "
                + (channels.isEmpty() ? "no channel is configured under seqlink.channels."
                        : "the channels configured under seqlink.channels are " + channels + ".");
        description += unknownKeys();
        String nearest = NearestName.of(qualifier, channels);
        String action = channels.isEmpty() ? capitalized(configure(qualifier))
                : (nearest != null ? "Did you mean '" + nearest + "'? Inject it with @Qualifier(\"" + nearest + "\")"
                        : "Inject one of " + channels + " with its name in @Qualifier") + ", or " + configure(qualifier);
        return new FailureAnalysis(description, action, cause);
    }

    /** The misspelt seqlink keys only warned about (seqlink.fail-on-unknown-properties=false), as a paragraph. */
    private String unknownKeys() {
        List<Violation> unknown = UnknownProperties.all(environment);
        if (unknown.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n\nThe configuration has keys that name no seqlink property (ignored, as "
                + "seqlink.fail-on-unknown-properties is false):");
        for (Violation v : unknown) {
            String fix = v.fix();
            int end = fix.indexOf('?');
            sb.append("\n\n    ").append(v.property()).append(end > 0 && fix.startsWith("did you mean ") ? ": "
                    + fix.substring(0, end + 1) : "");
        }
        return sb.toString();
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String configure(String name) {
        return "configure the channel under seqlink.channels." + name + " (its producer and consumers), e.g.\n\n"
                + "    seqlink:\n      channels:\n        " + name + ":\n          producer: 0\n          consumers: [1]\n\n"
                + "(docs/configuration.md lists every property.)";
    }

    private static @Nullable InjectionPoint injectionPoint(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UnsatisfiedDependencyException u && u.getInjectionPoint() != null) {
                return u.getInjectionPoint();
            }
        }
        return null;
    }

    private static @Nullable String qualifier(@Nullable InjectionPoint injectionPoint) {
        if (injectionPoint == null) {
            return null;
        }
        for (Annotation a : injectionPoint.getAnnotations()) {
            if (a instanceof Qualifier q && !q.value().isEmpty()) {
                return q.value();
            }
        }
        return null;
    }

    private static String describe(InjectionPoint injectionPoint) {
        MethodParameter p = injectionPoint.getMethodParameter();
        if (p != null) {
            String owner = p.getDeclaringClass().getName();
            java.lang.reflect.Method method = p.getMethod();
            return "Parameter " + p.getParameterIndex() + " of " + (method == null ? "the constructor of " + owner
                    : "method " + method.getName() + " in " + owner);
        }
        java.lang.reflect.Field field = injectionPoint.getField();
        return field == null ? "An injection point" : "Field " + field.getName() + " in " + field.getDeclaringClass().getName();
    }
}

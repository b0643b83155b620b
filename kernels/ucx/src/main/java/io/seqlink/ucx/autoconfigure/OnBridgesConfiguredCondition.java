package io.seqlink.ucx.autoconfigure;

import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when at least one {@code seqlink.ucx.senders.*} or {@code seqlink.ucx.receivers.*} is configured. */
class OnBridgesConfiguredCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Binder binder = Binder.get(context.getEnvironment());
        Bindable<Map<String, Object>> map = Bindable.mapOf(String.class, Object.class);
        boolean any = binder.bind("seqlink.ucx.senders", map).map(m -> !m.isEmpty()).orElse(false)
                || binder.bind("seqlink.ucx.receivers", map).map(m -> !m.isEmpty()).orElse(false);
        return any ? ConditionOutcome.match("seqlink.ucx bridges are configured")
                : ConditionOutcome.noMatch("no seqlink.ucx.senders or seqlink.ucx.receivers configured");
    }
}

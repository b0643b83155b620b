package io.seqlink.autoconfigure.diagnostics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** Analyzes a startup failure the way Boot's FailureAnalyzers does: every analyzer in spring.factories, first answer wins. */
public final class FailureAnalysisTester {

    private FailureAnalysisTester() {
    }

    public static FailureAnalysis analyze(Throwable failure) {
        return analyze(failure, new StandardEnvironment());
    }

    /**
     * As Boot analyzes a failure of an application whose configuration is {@code properties} ({@code key=value}):
     * analyzers that read the environment see them.
     */
    public static FailureAnalysis analyze(Throwable failure, String... properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", asMap(properties)));
        return analyze(failure, environment);
    }

    private static Map<String, Object> asMap(String... properties) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (String p : properties) {
            int eq = p.indexOf('=');
            map.put(p.substring(0, eq), p.substring(eq + 1));
        }
        return map;
    }

    private static FailureAnalysis analyze(Throwable failure, Environment environment) {
        SpringFactoriesLoader.ArgumentResolver args = SpringFactoriesLoader.ArgumentResolver
                .of(BeanFactory.class, new DefaultListableBeanFactory())
                .and(Environment.class, environment);
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(FailureAnalysisTester.class.getClassLoader())
                .load(FailureAnalyzer.class, args, SpringFactoriesLoader.FailureHandler.logging(
                        org.apache.commons.logging.LogFactory.getLog(FailureAnalysisTester.class)));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        return null;
    }

    /** The analysis as Boot prints it. */
    public static String report(FailureAnalysis analysis) {
        return "Description:\n\n" + analysis.getDescription() + "\n\nAction:\n\n" + analysis.getAction();
    }
}

package io.seqlink.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ClassUtils;

/** The auto-configuration classes follow Boot's conventions, and every class name they mention exists. */
class AutoConfigurationClassesTests {

    @Test
    void everyAfterNameAndBeforeNameResolvesToAClass() throws Exception {
        List<String> names = new ArrayList<>();
        for (String imported : imports()) {
            AutoConfiguration ac = Class.forName(imported).getAnnotation(AutoConfiguration.class);
            names.addAll(Arrays.asList(ac.afterName()));
            names.addAll(Arrays.asList(ac.beforeName()));
        }
        assertThat(names).isNotEmpty();
        for (String name : names) {
            assertThat(ClassUtils.isPresent(name, getClass().getClassLoader())).as("class %s exists", name).isTrue();
            assertThat(Class.forName(name).isAnnotationPresent(AutoConfiguration.class)).as("%s is an auto-configuration", name)
                    .isTrue();
        }
    }

    @Test
    void importsListEveryAutoConfigurationClassAndNothingElse() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.seqlink.autoconfigure");
        List<String> annotated = classes.stream().filter(c -> c.isAnnotatedWith(AutoConfiguration.class))
                .map(c -> c.getName()).sorted().toList();
        assertThat(imports()).containsExactlyInAnyOrderElementsOf(annotated);
    }

    @Test
    void autoConfigurationsArePublicFinalWithPackagePrivateBeanMethods() throws Exception {
        for (String imported : imports()) {
            Class<?> type = Class.forName(imported);
            assertThat(Modifier.isPublic(type.getModifiers()) && Modifier.isFinal(type.getModifiers()))
                    .as("%s is public final", type.getSimpleName()).isTrue();
            assertThat(type.getPackageName()).startsWith("io.seqlink.autoconfigure");
            for (Method m : type.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Bean.class)) {
                    int mod = m.getModifiers();
                    assertThat(Modifier.isPublic(mod) || Modifier.isProtected(mod) || Modifier.isPrivate(mod))
                            .as("@Bean %s.%s is package-private", type.getSimpleName(), m.getName()).isFalse();
                }
            }
        }
    }

    @Test
    void noBeanMethodExposesAJcudaType() throws Exception {
        for (String imported : imports()) {
            for (Method m : Class.forName(imported).getDeclaredMethods()) {
                assertThat(m.getReturnType().getName()).doesNotStartWith("jcuda.");
                for (Class<?> p : m.getParameterTypes()) {
                    assertThat(p.getName()).doesNotStartWith("jcuda.");
                }
            }
        }
    }

    @Test
    void failureAnalyzersAndTheEnvironmentPostProcessorAreRegistered() {
        SpringFactoriesLoader loader = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader());
        SpringFactoriesLoader.ArgumentResolver args = SpringFactoriesLoader.ArgumentResolver
                .of(org.springframework.beans.factory.BeanFactory.class,
                        new org.springframework.beans.factory.support.DefaultListableBeanFactory())
                .and(org.springframework.core.env.Environment.class, new org.springframework.core.env.StandardEnvironment());
        SpringFactoriesLoader.FailureHandler logging = SpringFactoriesLoader.FailureHandler
                .logging(org.apache.commons.logging.LogFactory.getLog(getClass()));
        List<String> analyzers = loader.load(FailureAnalyzer.class, args, logging).stream().map(a -> a.getClass().getName())
                .filter(n -> n.startsWith("io.seqlink")).toList();
        assertThat(analyzers).containsExactlyInAnyOrder(
                "io.seqlink.autoconfigure.diagnostics.SeqlinkConfigurationFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.InvalidChannelSpecFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.BackendUnavailableFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.UnsupportedLinkFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.KernelsMissingFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.ChannelBeanNameFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.ChannelInjectionFailureAnalyzer",
                "io.seqlink.autoconfigure.diagnostics.ChannelAttachFailureAnalyzer");
        assertThat(loader.load(EnvironmentPostProcessor.class, SpringFactoriesLoader.ArgumentResolver.none(), logging).stream()
                .map(p -> p.getClass().getSimpleName()))
                .contains("SeqlinkHealthStatusEnvironmentPostProcessor");
    }

    static List<String> imports() {
        try (InputStream in = new ClassPathResource(
                "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports").getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}

package io.seqlink;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.seqlink.bench.BenchMain;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tools module against the runtime it measures: the runtime artifact (the seqlink-kernels jar
 * under {@code mvn verify}, its classes folder under {@code mvn test}) holds none of the tools'
 * classes and no tooling package; the tools' own packages form no cycle, import no Spring and are
 * {@code @NullMarked}.
 */
class ToolsArchitectureTest {

    private static Path toolsClasses;
    private static Path runtime;
    private static JavaClasses tools;

    @BeforeAll
    static void locate() throws URISyntaxException {
        toolsClasses = Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        runtime = Path.of(SeqlinkRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        tools = new ClassFileImporter().importPath(toolsClasses);
    }

    @Test
    void theRuntimeArtifactHoldsNoClassOfTheTools() throws IOException {
        Set<String> toolClasses = classFiles(toolsClasses);
        Set<String> runtimeEntries = entries(runtime);
        assertThat(toolClasses).as("the tools' classes in %s", toolsClasses).hasSizeGreaterThan(30)
                .contains("io/seqlink/bench/BenchMain.class", "io/seqlink/soak/SoakMain.class",
                        "io/seqlink/backend/cuda/CycleBenchmark.class");
        assertThat(runtimeEntries).as("the runtime's entries in %s", runtime).contains("io/seqlink/SeqlinkRuntime.class")
                .doesNotContainAnyElementsOf(toolClasses)
                .noneMatch(e -> e.startsWith("io/seqlink/bench/") || e.startsWith("io/seqlink/soak/")
                        || e.startsWith("io/seqlink/jmh/"));
    }

    @Test
    void theToolsPackagesAreFreeOfCycles() {
        slices().matching("io.seqlink.(*)..").should().beFreeOfCycles().check(tools);
    }

    @Test
    void theToolsImportNothingFromSpring() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .because("the tools run beside the Spring-free runtime, without a Spring context")
                .check(tools);
    }

    @Test
    void everyPackageIsNullMarked() {
        Set<String> packages = tools.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).hasSizeGreaterThan(3).allSatisfy(p -> assertThat(tools.getPackage(p).isAnnotatedWith(NullMarked.class))
                .as("%s has a package-info.java annotated @NullMarked", p).isTrue());
    }

    /** Class files under a folder, as jar entry names (package-info aside: the split package has one in each jar). */
    private static Set<String> classFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.endsWith("package-info.class"))
                    .map(f -> folder.relativize(f).toString().replace('\\', '/'))
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    /** A jar's entry names, or a folder's files as entry names. */
    private static Set<String> entries(Path artifact) throws IOException {
        if (Files.isDirectory(artifact)) {
            try (Stream<Path> files = Files.walk(artifact)) {
                return files.filter(Files::isRegularFile).map(f -> artifact.relativize(f).toString().replace('\\', '/'))
                        .collect(TreeSet::new, Set::add, Set::addAll);
            }
        }
        Set<String> names = new TreeSet<>();
        try (JarFile jar = new JarFile(artifact.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                names.add(e.nextElement().getName());
            }
        }
        return names;
    }

    @Test
    void theToolsAreReallyImported() {
        assertThat(tools.contain(BenchMain.class)).isTrue();
        assertThat(runtime.getFileName().toString()).matches("classes|seqlink-kernels-.*\\.jar");
    }
}

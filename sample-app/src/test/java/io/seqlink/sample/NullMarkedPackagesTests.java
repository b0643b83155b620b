package io.seqlink.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/** Every package of the module declares its nullness: a {@code package-info.java} annotated {@code @NullMarked}. */
class NullMarkedPackagesTests {

    @Test
    void everyPackageIsNullMarked() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.seqlink.sample");
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).hasSizeGreaterThan(3).allSatisfy(p -> assertThat(classes.getPackage(p).isAnnotatedWith(NullMarked.class))
                .as("%s has a package-info.java annotated @NullMarked", p).isTrue());
    }
}

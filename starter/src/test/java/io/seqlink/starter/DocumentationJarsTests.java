package io.seqlink.starter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Every library the BOM lists is built with a {@code -sources} and a {@code -javadoc} jar, so an IDE shows
 * seqlink's documentation: {@code SeqlinkTestUtils.publish}'s, say, which tells what its {@code long} is. Reads
 * the jars the reactor packaged before this module (the starter comes after every library but the sample).
 */
class DocumentationJarsTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theTestArtifactShipsItsSourcesAndItsJavadoc() throws Exception {
        Path target = ROOT.resolve("autoconfigure/test/target");
        try (JarFile sources = jar(target, "seqlink-spring-boot-test", "sources")) {
            assertThat(sources.getEntry("io/seqlink/test/SeqlinkTestUtils.java")).isNotNull();
        }
        try (JarFile javadoc = jar(target, "seqlink-spring-boot-test", "javadoc")) {
            ZipEntry page = javadoc.getEntry("io/seqlink/test/SeqlinkTestUtils.html");
            assertThat(page).as("SeqlinkTestUtils.html in the javadoc jar").isNotNull();
            String html = new String(javadoc.getInputStream(page).readAllBytes(), StandardCharsets.UTF_8);
            assertThat(html).contains("publish(").contains("its sequence");
        }
    }

    @Test
    void theRuntimeAndTheAutoConfigurationShipTheirsToo() throws Exception {
        for (String[] module : new String[][] {{"kernels/target", "seqlink-kernels", "io/seqlink/channel/PublishChannel"},
                {"autoconfigure/target", "seqlink-spring-boot-autoconfigure", "io/seqlink/spring/listener/ChannelListener"}}) {
            Path target = ROOT.resolve(module[0]);
            try (JarFile sources = jar(target, module[1], "sources"); JarFile javadoc = jar(target, module[1], "javadoc")) {
                assertThat(sources.getEntry(module[2] + ".java")).as(module[1] + " sources").isNotNull();
                assertThat(javadoc.getEntry(module[2] + ".html")).as(module[1] + " javadoc").isNotNull();
            }
        }
    }

    /** The project's version, from the root pom. */
    private static String version() throws Exception {
        Matcher m = Pattern.compile("<artifactId>seqlink-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8));
        assertThat(m.find()).as("the root pom's version").isTrue();
        return m.group(1);
    }

    private static JarFile jar(Path target, String artifact, String classifier) throws Exception {
        Path jar = target.resolve(artifact + "-" + version() + "-" + classifier + ".jar");
        assertThat(Files.isRegularFile(jar)).as(jar + " (built by the reactor's package phase: run mvn package from the root)")
                .isTrue();
        return new JarFile(jar.toFile());
    }
}

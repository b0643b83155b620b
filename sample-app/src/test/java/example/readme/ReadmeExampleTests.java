package example.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.sample.web.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * The README's example is real: its {@code application.yml} block configures a context with the two
 * classes of this package, which the README shows verbatim ({@code DocSnippetsTests} checks that), and
 * frames published by the camera reach the listener. (A package of its own, like a user's application,
 * so the sample's component scan never sees these beans.)
 */
class ReadmeExampleTests {

    static final Path ROOT = Path.of(System.getProperty("seqlink-build.root", "..")).toAbsolutePath().normalize();
    static final Path README = ROOT.resolve("README.md");
    static final Path SOURCES = ROOT.resolve("sample-app/src/test/java/example/readme");

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Camera.class, Inference.class})
    static class ReadmeApplication {
    }

    @Test
    void theReadmeConfigurationRunsTheExample() throws Exception {
        Path yml = Files.createTempFile("readme-application", ".yml");
        Files.writeString(yml, readmeYaml(), StandardCharsets.UTF_8);
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(ReadmeApplication.class)
                .web(WebApplicationType.NONE)
                .run("--spring.config.location=file:" + yml, "--seqlink.backend=emulated")) {
            Camera camera = ctx.getBean(Camera.class);
            Inference inference = ctx.getBean(Inference.class);
            byte[] pixels = new byte[1024];
            for (int i = 0; i < 200; i++) {
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (!camera.send(System.nanoTime(), pixels)) {
                    assertThat(System.nanoTime() - deadline).as("a free slot within 10 s").isNegative();
                    Thread.onSpinWait();
                }
            }
            Await.until(Duration.ofSeconds(20), inference::received, n -> n == 200, "every frame at the listener");
        } finally {
            Files.deleteIfExists(yml);
        }
    }

    @Test
    void theReadmeClassesArePublicSoTheyCanBeCopiedIntoAnyPackage() throws Exception {
        for (Class<?> c : new Class<?>[] {Camera.class, Inference.class}) {
            assertThat(java.lang.reflect.Modifier.isPublic(c.getModifiers())).as(c.getSimpleName() + " is public").isTrue();
        }
        assertThat(java.lang.reflect.Modifier.isPublic(Camera.class.getConstructors()[0].getModifiers())).isTrue();
        assertThat(java.lang.reflect.Modifier.isPublic(Camera.class.getMethod("send", long.class, byte[].class).getModifiers()))
                .isTrue();
    }

    @Test
    void theReadmeDependencyImportsTheBomAndNamesTheStarterWithoutAVersion() throws Exception {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        String use = readme.substring(readme.indexOf("## Use it in your service"));
        Matcher m = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL).matcher(use);
        assertThat(m.find()).as("an xml block in 'Use it in your service'").isTrue();
        String xml = m.group(1);
        assertThat(xml).contains("<artifactId>seqlink-bom</artifactId>").contains("<scope>import</scope>")
                .contains("<artifactId>seqlink-spring-boot-starter</artifactId>");
        String bomVersion = Pattern.compile("seqlink-bom</artifactId>\\s*<version>([^<]+)</version>").matcher(xml).results()
                .map(r -> r.group(1)).findFirst().orElseThrow();
        String bom = Files.readString(ROOT.resolve("starter/bom/pom.xml"), StandardCharsets.UTF_8);
        assertThat(bom).as("the README's BOM version is the BOM's").contains("<version>" + bomVersion + "</version>");
        assertThat(xml.substring(xml.indexOf("seqlink-spring-boot-starter"))).as("the starter's version comes from the BOM")
                .doesNotContain("<version>");
    }

    @Test
    void theReadmeAndTheSpringGuideNameTheSpringBootLineTheStarterIsBuiltFor() throws Exception {
        String version = SpringBootVersion.getVersion(); // the Spring Boot on this build's classpath: the one it is built for
        String line = version.substring(0, version.indexOf('.', version.indexOf('.') + 1)) + ".x";
        for (Path doc : new Path[] {README, ROOT.resolve("docs/spring-boot.md")}) {
            assertThat(Files.readString(doc, StandardCharsets.UTF_8)).as(doc.getFileName() + " names Spring Boot " + line)
                    .contains("Spring Boot " + line);
        }
    }

    @Test
    void theReadmeSaysThatVerifyInstallsUcxAsTheBuildsScriptDoes() throws Exception {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        String commands = readme.substring(readme.indexOf("## Two commands"), readme.indexOf("### What to try"));
        assertThat(commands).contains("`libucx0`", "`ucx-utils`", "scripts/ensure-ucx.sh");
        assertThat(Files.readString(ROOT.resolve("scripts/ensure-ucx.sh"), StandardCharsets.UTF_8))
                .contains("apt-get install -y --no-install-recommends libucx0 ucx-utils");
    }

    /** The first yaml block of the README's "Use it in your service" section. */
    static String readmeYaml() throws Exception {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int section = readme.indexOf("## Use it in your service");
        assertThat(section).as("README has a 'Use it in your service' section").isPositive();
        Matcher m = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find(section)).as("a yaml block in that section").isTrue();
        return m.group(1);
    }
}

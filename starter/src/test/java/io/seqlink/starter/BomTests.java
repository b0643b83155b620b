package io.seqlink.starter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * seqlink-bom (starter/bom) manages every artifact of the build that a service may depend on, each at the
 * project's version, and nothing else: so a service that imports it names the starter without a version.
 */
class BomTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theBomListsEveryPublishedModuleAtTheProjectsVersion() throws Exception {
        Document root = parse(ROOT.resolve("pom.xml"));
        String version = child(root.getDocumentElement(), "version");
        Set<String> published = new TreeSet<>();
        for (Element module : elements(root.getDocumentElement(), "modules", "module")) {
            Document pom = parse(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml"));
            String artifact = child(pom.getDocumentElement(), "artifactId");
            if (!artifact.equals("seqlink-bom") && !artifact.equals("seqlink-sample-app")) { // the sample is no library
                published.add(artifact);
            }
        }
        assertThat(published).as("modules of the root pom").contains("seqlink-spring-boot-starter", "seqlink-kernels");

        Document bom = parse(ROOT.resolve("starter/bom/pom.xml"));
        assertThat(child(bom.getDocumentElement(), "version")).as("the BOM's own version").isEqualTo(version);
        assertThat(bom.getDocumentElement().getElementsByTagName("parent").getLength()).as("no parent: it manages seqlink only")
                .isZero();
        Set<String> managed = new TreeSet<>();
        for (Element d : elements(bom.getDocumentElement(), "dependencyManagement", "dependencies", "dependency")) {
            assertThat(child(d, "groupId")).isEqualTo("io.seqlink");
            assertThat(child(d, "version")).as(child(d, "artifactId")).isEqualTo(version);
            managed.add(child(d, "artifactId"));
        }
        assertThat(managed).isEqualTo(published);
        assertThat(Files.readString(ROOT.resolve("pom.xml"))).contains("<module>starter/bom</module>");
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of {@code parent}'s direct child element {@code name}. */
    private static String child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    /** The elements at {@code path} below {@code from}, each step a direct child. */
    private static List<Element> elements(Element from, String... path) {
        List<Element> level = List.of(from);
        for (String step : path) {
            List<Element> next = new ArrayList<>();
            for (Element e : level) {
                NodeList children = e.getChildNodes();
                for (int i = 0; i < children.getLength(); i++) {
                    if (children.item(i) instanceof Element c && c.getTagName().equals(step)) {
                        next.add(c);
                    }
                }
            }
            level = next;
        }
        return level;
    }
}

package io.seqlink.sample.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet of README.md and docs/*.md compiles as shown: each {@code ```java} block is a whole
 * source file of the build (imports included), named on the line above it as
 * {@code <!-- source: path/from/the/root.java -->}, and must equal that file byte for byte. The build
 * compiles (and its tests run) the file, so a snippet that drifts or stops compiling fails here or
 * there. A block that looks like Java but is not tagged {@code java} fails too: it would escape the check.
 */
class DocSnippetsTests {

    static final Path ROOT = ConfigurationDocTests.ROOT;
    static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
    static final Pattern SOURCE = Pattern.compile("^<!-- source: (\\S+\\.java) -->$");
    /** A Java statement: a call or an assignment ending in ';', which a shell line, a table or a diagram is not. */
    static final Pattern JAVA_STATEMENT = Pattern.compile(".*(\\w\\(.*\\)|\\w\\s*=\\s*\\S.*);\\s*(//.*)?$");

    /** A fenced block: the document, the line of its opening fence, its language, the line above, its text. */
    record Block(Path doc, int line, String language, String above, String text) {
        @Override
        public String toString() {
            return ROOT.relativize(doc) + ":" + line;
        }
    }

    @Test
    void everyJavaBlockIsAWholeSourceFileOfTheBuildShownVerbatim() throws IOException {
        List<Block> java = blocks().stream().filter(b -> b.language().equals("java")).toList();
        assertThat(java).as("Java blocks in the docs").hasSizeGreaterThanOrEqualTo(5);
        for (Block b : java) {
            Matcher m = SOURCE.matcher(b.above());
            assertThat(m.matches()).as(b + ": put <!-- source: path/of/the/File.java --> on the line above the block, "
                    + "the file being a source of the build that the block shows whole").isTrue();
            Path source = ROOT.resolve(m.group(1)).normalize();
            assertThat(source).as(b + " names a file").isRegularFile();
            assertThat(ROOT.relativize(source).toString()).as(b + ": a source compiled by the build")
                    .matches("(kernels|autoconfigure(/test)?|starter|sample-app)/src/(main|test)/java/.+");
            assertThat(b.text()).as(b + " shows " + m.group(1) + " verbatim (copy the file into the block)")
                    .isEqualTo(Files.readString(source, StandardCharsets.UTF_8).stripTrailing());
            assertThat(b.text()).as(b + " is a whole unit: package and imports").startsWith("package ");
        }
    }

    @Test
    void noJavaHidesInABlockOfAnotherLanguage() throws IOException {
        for (Block b : blocks()) {
            if (b.language().isEmpty() || b.language().equals("text")) {
                assertThat(b.text().lines().filter(l -> JAVA_STATEMENT.matcher(l).matches()).toList())
                        .as(b + " looks like Java: tag it java and show a whole source file").isEmpty();
            }
        }
    }

    static List<Block> blocks() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher open = FENCE.matcher(lines.get(i));
                if (!open.matches()) {
                    continue;
                }
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).startsWith("```")) {
                    end++;
                }
                String above = i > 0 ? lines.get(i - 1).strip() : "";
                blocks.add(new Block(doc, i + 1, open.group(1), above, String.join("\n", lines.subList(i + 1, end))));
                i = end;
            }
        }
        return blocks;
    }
}

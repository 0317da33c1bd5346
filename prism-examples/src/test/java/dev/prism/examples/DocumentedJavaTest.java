package dev.prism.examples;

import org.junit.jupiter.api.Test;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java block in the README and in {@code docs/} compiles against PRISM's modules as they are: a block of
 * statements as the body of a method that has {@code target} (a {@code Path}) and {@code scenario} at hand, a block
 * that declares a class as a class. (The README's first example also runs, verbatim, in {@link ReadmeExampleTest}.)
 */
class DocumentedJavaTest {
    private static final Path ROOT = Path.of("..");
    private static final String IMPORTS = """
            import dev.prism.*;
            import dev.prism.posix.*;
            import dev.prism.posix.metadata.*;
            import dev.prism.posix.data.*;
            import dev.prism.posix.workflows.*;
            import dev.prism.torch.*;
            import dev.prism.report.*;
            import dev.prism.junit.*;
            import java.nio.file.*;
            import java.time.*;
            import java.util.*;
            import org.junit.jupiter.api.*;
            import org.junit.jupiter.api.extension.*;
            """;

    record Block(Path page, int line, String code) {
    }

    static List<Block> blocks() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).equals("```java")) {
                    int start = i + 1;
                    StringBuilder code = new StringBuilder();
                    while (++i < lines.size() && !lines.get(i).startsWith("```")) {
                        code.append(lines.get(i)).append('\n');
                    }
                    blocks.add(new Block(page, start, code.toString()));
                }
            }
        }
        return blocks;
    }

    /** @return the block as a compilation unit of its own */
    static String unit(String name, String code) {
        boolean declaresClass = code.lines().anyMatch(l -> l.matches("(@\\w+.*|(public |final )*class \\w+.*)"));
        if (declaresClass) {
            return IMPORTS + code.replaceFirst("(?m)^class (\\w+)", "class " + name + "_$1");
        }
        return IMPORTS + "class " + name + " {\n    void example(Path target, Scenario scenario) throws Exception {\n"
                + code + "\n    }\n}\n";
    }

    @Test
    void everyDocumentedJavaBlockCompiles() throws IOException {
        List<Block> blocks = blocks();
        assertThat(blocks).as("Java blocks in README.md and docs/").hasSizeGreaterThanOrEqualTo(5);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path out = Files.createTempDirectory("prism-doc-java-");
        List<String> problems = new ArrayList<>();
        try {
            for (int b = 0; b < blocks.size(); b++) {
                Block block = blocks.get(b);
                String name = "DocExample" + b;
                String source = unit(name, block.code());
                JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
                DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
                boolean ok = javac.getTask(null, null, diagnostics, List.of("-classpath", classPath, "-d", out.toString(),
                        "-proc:none", "-Xlint:none"), null, List.of(file)).call();
                if (!ok) {
                    diagnostics.getDiagnostics().forEach(d -> problems.add(ROOT.relativize(block.page()) + ", the block at line "
                            + block.line() + ": " + d.getMessage(null)));
                }
            }
        } finally {
            dev.prism.DirectoryRemoval.of(out);
        }
        assertThat(problems).as("documented Java that does not compile").isEmpty();
    }
}

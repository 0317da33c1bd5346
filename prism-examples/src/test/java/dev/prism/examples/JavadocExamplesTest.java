package dev.prism.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule that every public type's usage example works pasted into JShell, checked: each
 * {@code <pre>{@code …}</pre>} block in the Javadoc of every module's public packages is fed to
 * one JShell session on this module's test class path (which holds every module), with
 * {@code java.io.tmpdir} pointing into this test's own directory, and the session must print no
 * error and no exception.
 */
class JavadocExamplesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EXAMPLE = Pattern.compile("<pre>\\{@code\\n(.*?)\\n\\s*\\*?\\s*}</pre>", Pattern.DOTALL);
    private static final String MARK = "### example from ";
    /** How JShell running a script reports a snippet that did not compile or threw. */
    private static final Pattern JSHELL_FAILURE = Pattern.compile("^(\\|  )?(Error:|Exception [\\w.$]+)");

    @Test
    void everyPublicExample_runsInJShell(@TempDir Path work) throws Exception {
        List<String> script = new ArrayList<>();
        int examples = 0;
        List<String> commentedOut = new ArrayList<>();
        for (Path source : publicSources()) {
            Matcher m = EXAMPLE.matcher(Files.readString(source));
            while (m.find()) {
                examples++;
                String code = m.group(1).lines().map(line -> line.replaceFirst("^\\s*\\* ?", ""))
                        .collect(Collectors.joining("\n"));
                if (code.lines().filter(l -> !l.isBlank()).allMatch(l -> l.strip().startsWith("//"))) {
                    commentedOut.add(ROOT.relativize(source).toString());
                }
                script.add("System.out.println(\"" + MARK + ROOT.relativize(source) + "\");");
                script.add(code);
            }
        }
        assertThat(commentedOut).as("examples that are entirely comments, so run nothing").isEmpty();
        script.add("System.out.println(\"### done\");");
        script.add("/exit");
        Path session = Files.writeString(work.resolve("examples.jsh"), String.join("\n", script) + "\n");
        Path tmp = Files.createDirectories(work.resolve("tmp"));

        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(jshell.toString(), "--class-path", classPath, "-R-Djava.io.tmpdir=" + tmp,
                "--feedback", "normal", session.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("jshell finished").isTrue();

        assertThat(examples).as("examples found").isGreaterThan(60);
        assertThat(out).as("the session ran to its end").contains("### done");
        assertThat(failures(out)).as("examples that failed in JShell").isEmpty();
    }

    /** @return for each failing example, its file and what JShell said */
    private static List<String> failures(String out) {
        List<String> failed = new ArrayList<>();
        String current = "(before the first example)";
        StringBuilder said = new StringBuilder();
        boolean failing = false;
        for (String line : out.lines().toList()) {
            if (line.startsWith(MARK) || line.equals("### done")) {
                if (failing) {
                    failed.add(current + ":\n" + said);
                }
                current = line.startsWith(MARK) ? line.substring(MARK.length()) : "";
                said.setLength(0);
                failing = false;
                continue;
            }
            said.append(line).append('\n');
            if (JSHELL_FAILURE.matcher(line).find()) {
                failing = true;
            }
        }
        return failed;
    }

    private static List<Path> publicSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("prism-")).sorted().toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        files.filter(f -> f.toString().endsWith(".java") && !f.toString().contains("/internal/"))
                                .sorted().forEach(sources::add);
                    }
                }
            }
        }
        return sources;
    }
}

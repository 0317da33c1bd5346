package dev.prism.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.net.URI;
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
 * The rule that every public type's usage example compiles and runs, checked: each {@code <pre>{@code …}</pre>}
 * block in the Javadoc of every module's public packages becomes the body of a method, with the imports JShell starts
 * with (so an example pasted into JShell works too); all are compiled in one javac task against this module's test
 * class path (which holds every module) and run, in order, in one JVM with {@code java.io.tmpdir} pointing into this
 * test's own directory. An example that does not compile, throws, or is nothing but comments fails the test, named by
 * its file. (One JShell session did the same in 115 s; javac and one JVM take a few.)
 */
class JavadocExamplesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EXAMPLE = Pattern.compile("<pre>\\{@code\\n(.*?)\\n\\s*\\*?\\s*}</pre>", Pattern.DOTALL);
    /** What JShell imports at start (its DEFAULT startup), so that an example that works here works pasted there. */
    private static final String JSHELL_IMPORTS = Stream.of("java.io", "java.math", "java.net", "java.nio.file", "java.util",
            "java.util.concurrent", "java.util.function", "java.util.prefs", "java.util.regex", "java.util.stream")
            .map(p -> "import " + p + ".*;\n").collect(Collectors.joining());
    private static final String MARK = "### example ";
    private static final String FAILED = "### failed ";

    record Example(String source, String code) {
    }

    @Test
    void everyPublicExample_compilesAndRuns(@TempDir Path work) throws Exception {
        List<Example> examples = new ArrayList<>();
        List<String> commentedOut = new ArrayList<>();
        for (Path source : publicSources()) {
            Matcher m = EXAMPLE.matcher(Files.readString(source));
            while (m.find()) {
                String code = m.group(1).lines().map(line -> line.replaceFirst("^\\s*\\* ?", ""))
                        .collect(Collectors.joining("\n"));
                if (code.lines().filter(l -> !l.isBlank()).allMatch(l -> l.strip().startsWith("//"))) {
                    commentedOut.add(ROOT.relativize(source).toString());
                }
                examples.add(new Example(ROOT.relativize(source).toString(), code));
            }
        }
        assertThat(commentedOut).as("examples that are entirely comments, so run nothing").isEmpty();
        assertThat(examples).as("examples found").hasSizeGreaterThan(60);

        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> notCompiled = compile(examples, classPath, classes);
        assertThat(notCompiled).as("examples that do not compile").isEmpty();

        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp,
                "-cp", classes + File.pathSeparator + classPath, "Examples")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the examples finished").isTrue();
        assertThat(out).as("every example ran").contains("### done");
        List<String> failed = out.lines().filter(l -> l.startsWith(FAILED)).map(l -> l.substring(FAILED.length())).toList();
        assertThat(failed).as("examples that threw (the output: %s)", out).isEmpty();
        assertThat(p.exitValue()).isZero();
    }

    /** @return javac's complaints, each named by the example's file; the classes go to {@code classes} */
    private static List<String> compile(List<Example> examples, String classPath, Path classes) {
        List<JavaFileObject> units = new ArrayList<>();
        java.util.Map<JavaFileObject, String> sources = new java.util.HashMap<>(); // each unit's example, by its file
        StringBuilder main = new StringBuilder("public class Examples {\n  public static void main(String[] a) {\n");
        for (int i = 0; i < examples.size(); i++) {
            Example e = examples.get(i);
            String name = "Example" + i;
            String[] parts = splitDeclarations(e.code());
            JavaFileObject unit = unit(name, JSHELL_IMPORTS + parts[2] + "/* " + e.source() + " */\npublic class " + name
                    + " {\n" + parts[0] + "  static void run() throws Throwable {\n" + parts[1] + "\n  }\n}\n");
            units.add(unit);
            sources.put(unit, e.source());
            String label = e.source().replace("\\", "\\\\").replace("\"", "\\\"");
            main.append("    System.out.println(\"").append(MARK).append(label).append("\");\n")
                    .append("    try { ").append(name).append(".run(); } catch (Throwable t) { System.out.println(\"")
                    .append(FAILED).append(label).append(": \" + t); t.printStackTrace(System.out); }\n");
        }
        main.append("    System.out.println(\"### done\");\n    System.exit(0);\n  }\n}\n");
        units.add(unit("Examples", main.toString()));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean ok = javac.getTask(null, null, diagnostics, List.of("-classpath", classPath, "-d", classes.toString(),
                "-proc:none", "-Xlint:none", "-nowarn"), null, units).call();
        List<String> problems = new ArrayList<>();
        if (!ok) {
            diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
                    .forEach(d -> problems.add(sources.getOrDefault(d.getSource(), d.getSource().getName()) + ": "
                            + d.getMessage(null)));
        }
        return problems;
    }

    private static final Pattern TYPE_DECLARATION =
            Pattern.compile("^((?:public |final |abstract |static |@[\\w.()]+\\s*)*)(class|record|interface|enum) .*");

    /**
     * @return {@code code}'s types declared at its top level, as JShell takes them (a test class for the JUnit
     *         Platform to run, say), made static members of the example's class; its statements; and its imports (an
     *         example starts with ordinary {@code import} lines, as a Java file or JShell takes them)
     */
    static String[] splitDeclarations(String code) {
        StringBuilder members = new StringBuilder();
        StringBuilder statements = new StringBuilder();
        StringBuilder imports = new StringBuilder();
        boolean inType = false;
        for (String line : code.lines().toList()) {
            if (!inType && line.startsWith("import ")) {
                imports.append(line).append('\n');
                continue;
            }
            Matcher m = TYPE_DECLARATION.matcher(line);
            if (!inType && m.matches()) {
                inType = true;
                // a public static member, so that the JUnit Platform may run one that is a test class
                line = m.group(1).replace("public ", "").replace("static ", "") .replace("final ", "")
                        .replace("abstract ", "") + "public static " + line.substring(m.group(1).length());
            }
            (inType ? members : statements).append(line).append('\n');
            if (inType && line.equals("}")) {
                inType = false;
            }
        }
        return new String[]{members.toString(), statements.toString(), imports.toString()};
    }

    private static JavaFileObject unit(String name, String source) {
        return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
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

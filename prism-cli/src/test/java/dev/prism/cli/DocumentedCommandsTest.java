package dev.prism.cli;

import dev.prism.Benchmarks;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code prism} command line in the README and in {@code docs/} parses as the CLI parses it: its command, its
 * options and their values, and the benchmark names it gives. A renamed option or benchmark that a page still shows
 * fails here, naming the page, the line and what the CLI said.
 */
class DocumentedCommandsTest {
    private static final Path ROOT = Path.of("..");

    /** One command line of a page's shell block. */
    record Example(Path page, int line, List<String> args) {
        @Override
        public String toString() {
            return ROOT.relativize(page) + ":" + line + ": prism " + String.join(" ", args);
        }
    }

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** @return the prism command lines of the page's sh and bash blocks, continuations joined */
    static List<Example> examples(Path page) throws IOException {
        List<Example> found = new ArrayList<>();
        List<String> lines = Files.readAllLines(page);
        boolean shell = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                shell = !shell && (line.equals("```sh") || line.equals("```bash"));
                continue;
            }
            if (!shell) {
                continue;
            }
            int first = i;
            StringBuilder logical = new StringBuilder(line);
            while (logical.toString().endsWith("\\") && i + 1 < lines.size()) {
                logical.setLength(logical.length() - 1);
                logical.append(' ').append(lines.get(++i).strip());
            }
            for (String segment : logical.toString().split("&&|\\|\\||;|\\|")) {
                List<String> words = words(segment.replaceFirst("\\s#.*$", "").replaceFirst("^#.*$", ""));
                int at = -1;
                for (int w = 0; w < words.size() && at < 0; w++) {
                    if (words.get(w).equals("prism") || words.get(w).endsWith("/prism")) {
                        at = w;
                    }
                }
                if (at >= 0 && words.size() > at + 1) {
                    List<String> args = new ArrayList<>(words.subList(at + 1, words.size()));
                    int redirect = args.indexOf(">");
                    if (redirect < 0) {
                        redirect = args.indexOf("2>&1");
                    }
                    found.add(new Example(page, first + 1, redirect < 0 ? args : args.subList(0, redirect)));
                }
            }
        }
        return found;
    }

    /** @return the words of a shell line, quotes removed (enough for the pages' examples) */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    @Test
    void everyDocumentedCommandLineParses() throws IOException {
        List<Example> all = new ArrayList<>();
        for (Path page : pages()) {
            all.addAll(examples(page));
        }
        assertThat(all).as("prism command lines found in README.md and docs/").hasSizeGreaterThan(20);
        List<String> problems = new ArrayList<>();
        for (Example e : all) {
            try {
                CommandLine.ParseResult parsed = PrismCommand.commandLine().parseArgs(e.args().toArray(String[]::new));
                CommandLine.ParseResult sub = parsed.subcommand();
                if (sub != null && List.of("run", "describe").contains(sub.commandSpec().name())) {
                    for (String name : sub.matchedPositionals().stream().flatMap(p -> p.stringValues().stream()).toList()) {
                        if (!name.contains("$") && !Benchmarks.names().contains(name)) {
                            problems.add(e + ": no benchmark '" + name + "'");
                        }
                    }
                }
            } catch (CommandLine.ParameterException ex) {
                problems.add(e + ": " + ex.getMessage());
            }
        }
        assertThat(problems).as("documented command lines the CLI rejects").isEmpty();
    }
}

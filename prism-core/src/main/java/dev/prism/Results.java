package dev.prism;

import dev.prism.internal.ResultJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads {@code prism.run/1} documents back: a file, or a result directory (its run documents, and
 * those of the run-id directories inside it).
 *
 * <pre>{@code
 * // var runs = dev.prism.Results.load(java.nio.file.Path.of("prism-results/20261130-010203-ab12"));
 * }</pre>
 */
public final class Results {
    private Results() {
    }

    /**
     * @return every run in {@code fileOrDirectory}, in file-name order
     * @throws IllegalArgumentException when it holds none, or a file that is not a result document, naming it
     */
    public static List<RunResult> load(Path fileOrDirectory) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(fileOrDirectory)) {
            try (Stream<Path> walk = Files.walk(fileOrDirectory, 2)) {
                walk.filter(p -> p.getFileName().toString().matches("\\d+-.+-t\\d+\\.json")).sorted().forEach(files::add);
            }
        } else if (Files.isRegularFile(fileOrDirectory)) {
            files.add(fileOrDirectory);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(fileOrDirectory + " holds no prism.run/1 documents (NN-benchmark-tN.json)");
        }
        List<RunResult> runs = new ArrayList<>();
        for (Path file : files) {
            try {
                runs.add(ResultJson.read(file));
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IllegalArgumentException(file + " is not a prism.run/1 result document (" + e.getOriginalMessage()
                        + ")", e);
            } catch (RuntimeException e) {
                // not a result document (ResultJson names the file), or one a field of which does not read
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return runs;
    }
}

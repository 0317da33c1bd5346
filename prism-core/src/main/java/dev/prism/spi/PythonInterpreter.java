package dev.prism.spi;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which Python PRISM's workers run on (torch's ranks, the Python file interfaces): {@code $PRISM_PYTHON}, else the
 * project's {@code .venv/bin/python} ({@code scripts/python-venv.sh} makes it, with torch, transformers and fsspec)
 * in the working directory, one of its parents or {@code prism.home}, else {@code python3} on PATH.
 *
 * <pre>{@code
 * import dev.prism.spi.PythonInterpreter;
 *
 * System.out.println(PythonInterpreter.defaultPath());
 * }</pre>
 */
public final class PythonInterpreter {
    private PythonInterpreter() {
    }

    /** @return the interpreter to run, by the order above */
    public static Path defaultPath() {
        String fromEnvironment = System.getenv("PRISM_PYTHON");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Path.of(fromEnvironment);
        }
        List<Path> roots = new ArrayList<>();
        if (System.getProperty("prism.home") != null) {
            roots.add(Path.of(System.getProperty("prism.home")));
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 3 && dir != null; i++, dir = dir.getParent()) {
            roots.add(dir);
        }
        for (Path root : roots) {
            Path venv = root.resolve(".venv/bin/python");
            if (Files.isExecutable(venv)) {
                return venv;
            }
        }
        return Path.of("python3");
    }
}

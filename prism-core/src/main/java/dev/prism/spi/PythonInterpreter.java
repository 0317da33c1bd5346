package dev.prism.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which Python PRISM's workers run on (torch's ranks, the Python file interfaces, dataset scripts), and how it is
 * started. Only from places the operator chose: {@code $PRISM_PYTHON}, else the project's own {@code .venv/bin/python}
 * beside {@code prism} ({@code prism.home}; {@code scripts/python-venv.sh} makes it, with torch, transformers and
 * fsspec), else {@code /usr/bin/python3} — never found by walking up from the working directory, where another user
 * may have put a {@code .venv} of their own. Whichever it is must pass {@link TrustedPrograms#check}: owned by root or
 * this user, not writable by others, nor any directory on its path. It always runs isolated ({@link #ISOLATED},
 * {@code -I}: neither the working nor the script's directory on {@code sys.path}, no {@code PYTHON*} variables, no user
 * site-packages).
 *
 * <pre>{@code
 * import dev.prism.spi.PythonInterpreter;
 *
 * System.out.println(PythonInterpreter.defaultPath());
 * System.out.println(PythonInterpreter.command(PythonInterpreter.defaultPath(), "-c", "print(1)"));
 * }</pre>
 */
public final class PythonInterpreter {
    /** Python's isolated mode, on every Python PRISM starts. */
    public static final String ISOLATED = "-I";
    /** Where the interpreter comes from when neither {@code PRISM_PYTHON} nor the project's .venv gives one. */
    public static final Path SYSTEM = Path.of("/usr/bin/python3");

    private PythonInterpreter() {
    }

    /** @return the interpreter to run, by the order above (not yet checked: {@link #trusted} does) */
    public static Path defaultPath() {
        return defaultPath(System.getenv("PRISM_PYTHON"), System.getProperty("prism.home"));
    }

    /** @return the interpreter by the order above, from {@code $PRISM_PYTHON} and the project's home as given */
    static Path defaultPath(String fromEnvironment, String home) {
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Path.of(fromEnvironment);
        }
        if (home != null && !home.isBlank()) {
            Path venv = Path.of(home, ".venv", "bin", "python");
            if (Files.isExecutable(venv)) {
                return venv;
            }
        }
        return SYSTEM;
    }

    /**
     * @return {@code python}, absolute, once it passed {@link TrustedPrograms#check}
     * @throws IllegalArgumentException naming the file or directory another user could change
     */
    public static Path trusted(Path python) throws IOException {
        return TrustedPrograms.check(python, "Python interpreter");
    }

    /** @return {@code python -I} followed by {@code arguments} */
    public static List<String> command(Path python, String... arguments) {
        List<String> command = new ArrayList<>(List.of(python.toString(), ISOLATED));
        command.addAll(List.of(arguments));
        return command;
    }
}

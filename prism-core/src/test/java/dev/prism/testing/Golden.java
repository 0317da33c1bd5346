package dev.prism.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A text output held to its golden file in {@code src/test/resources/golden} of the module under test; with
 * {@code -Dprism.updateGolden=true} the file is written first (regenerate deliberately, and say why in the commit).
 */
public final class Golden {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    private Golden() {
    }

    /** Asserts that {@code actual} is the content of the golden file {@code name}. */
    public static void matches(String name, String actual) throws IOException {
        Path file = GOLDEN.resolve(name);
        if (Boolean.getBoolean("prism.updateGolden")) {
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as(name + " (regenerate with -Dprism.updateGolden=true)").isEqualTo(Files.readString(file));
    }
}

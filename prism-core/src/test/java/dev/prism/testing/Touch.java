package dev.prism.testing;

import dev.prism.Benchmark;

import java.nio.file.Files;
import java.nio.file.Path;

/** The tests' smallest real benchmark: each rank creates N empty files, each {@code create} timed with its path. */
public final class Touch {
    private Touch() {
    }

    /** @return a benchmark named {@code touch} creating {@code files} files per rank */
    public static Benchmark files(int files) {
        return Benchmark.builder("touch").run(ctx -> {
            for (int i = 0; i < files; i++) {
                Path f = ctx.workDirectory().resolve("f" + i);
                try (var t = ctx.time("create", f)) {
                    Files.createFile(f);
                }
            }
        }).build();
    }
}

package dev.prism.junit;

import dev.prism.DirectoryRemoval;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Resolves {@link PrismTarget} parameters of type {@code Path}: {@code -Dprism.target=DIR}, which
 * must be an existing directory and is never removed, or else a temporary directory that is removed
 * when the test ends, by directory descriptor and without following links ({@link DirectoryRemoval});
 * what could not be removed fails the test, naming the call, path and errno. Take
 * {@code dev.prism:prism-junit} in test scope, next to your own JUnit 5.
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 * import dev.prism.Scenario;
 * import dev.prism.junit.PrismTarget;
 * import dev.prism.junit.PrismTargetExtension;
 * import dev.prism.report.Gate;
 * import java.nio.file.Path;
 * import java.time.Duration;
 * import java.util.Map;
 *
 * public @org.junit.jupiter.api.extension.ExtendWith(PrismTargetExtension.class) class QualifyExample {
 *     public @org.junit.jupiter.api.Test void createIsFast(@PrismTarget Path target) {
 *         var result = Scenario.builder().target(target)
 *                 .benchmark(Benchmarks.create("create_files", Map.of("files", "200")))
 *                 .repetitions(3).build().execute();
 *         Gate.of(Gate.expect("create_files").op("create").p99().below(Duration.ofSeconds(1)))
 *                 .evaluate(result.runs()).assertPassed();
 *     }
 * }
 * var outcome = new org.junit.platform.launcher.listeners.SummaryGeneratingListener();
 * org.junit.platform.launcher.core.LauncherFactory.create().execute(
 *         org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
 *                 .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(QualifyExample.class)).build(),
 *         outcome);
 * if (outcome.getSummary().getTotalFailureCount() > 0) throw new AssertionError(outcome.getSummary().getFailures().get(0).getException());
 * System.out.println(outcome.getSummary().getTestsSucceededCount() + " storage acceptance test(s) passed");
 * }</pre>
 */
public final class PrismTargetExtension implements ParameterResolver {
    /** The system property naming the directory to qualify. */
    public static final String PROPERTY = "prism.target";

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(PrismTarget.class) && parameter.getParameter().getType() == Path.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        String given = System.getProperty(PROPERTY);
        if (given != null && !given.isBlank()) {
            Path target = Path.of(given).toAbsolutePath().normalize();
            if (!Files.isDirectory(target)) {
                throw new ParameterResolutionException("-D" + PROPERTY + "=" + given + " is not an existing directory");
            }
            return target;
        }
        try {
            Path temporary = Files.createTempDirectory("prism-acceptance-");
            context.getStore(ExtensionContext.Namespace.create(PrismTargetExtension.class))
                    .put(temporary.toString(), new TemporaryTarget(temporary));
            return temporary;
        } catch (IOException e) {
            throw new ParameterResolutionException("cannot create a temporary target in "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
    }

    /**
     * A temporary target, removed when JUnit closes the test's store. {@code AutoCloseable} is what
     * JUnit 5.13 and later close; {@code CloseableResource} keeps it closed on 5.10–5.12 as well.
     */
    @SuppressWarnings("deprecation")
    private record TemporaryTarget(Path directory) implements AutoCloseable, ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws IOException {
            if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            DirectoryRemoval removal = DirectoryRemoval.of(directory);
            if (!removal.complete()) {
                throw new IOException("the temporary PRISM target was not removed: " + removal.summary());
            }
        }
    }
}

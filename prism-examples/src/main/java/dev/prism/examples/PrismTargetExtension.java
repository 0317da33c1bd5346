package dev.prism.examples;

import dev.prism.internal.RunDirectory;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resolves {@link PrismTarget} parameters: {@code -Dprism.target=DIR} (which must exist), else a
 * temporary directory that is removed, without following links, when the test ends.
 *
 * <pre>{@code
 * // @ExtendWith(dev.prism.examples.PrismTargetExtension.class) on a JUnit 5 test class
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
            Path target = Path.of(given);
            if (!Files.isDirectory(target)) {
                throw new ParameterResolutionException("-D" + PROPERTY + "=" + given + " is not an existing directory");
            }
            return target;
        }
        try {
            Path temporary = Files.createTempDirectory("prism-acceptance-");
            context.getStore(ExtensionContext.Namespace.create(PrismTargetExtension.class))
                    .put(temporary.toString(), (ExtensionContext.Store.CloseableResource) () -> RunDirectory.deleteTree(temporary));
            return temporary;
        } catch (IOException e) {
            throw new ParameterResolutionException("cannot create a temporary target: " + e.getMessage(), e);
        }
    }
}

package dev.prism.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code Path} test parameter as the directory to qualify: the system property
 * {@code prism.target} ({@code mvn test -Dprism.target=/mnt/nfs/prism}), which must be an existing
 * directory, or else a fresh temporary directory that is removed — without following links — when
 * the test ends. Resolved by {@link PrismTargetExtension}.
 *
 * <pre>{@code
 * import dev.prism.junit.PrismTarget;
 * import dev.prism.junit.PrismTargetExtension;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * public @org.junit.jupiter.api.extension.ExtendWith(PrismTargetExtension.class) class TargetExample {
 *     public @org.junit.jupiter.api.Test void isADirectory(@PrismTarget Path target) {
 *         if (!Files.isDirectory(target)) throw new AssertionError(target + " is not a directory");
 *     }
 * }
 * var outcome = new org.junit.platform.launcher.listeners.SummaryGeneratingListener();
 * org.junit.platform.launcher.core.LauncherFactory.create().execute(
 *         org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
 *                 .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(TargetExample.class)).build(),
 *         outcome);
 * System.out.println(outcome.getSummary().getTestsSucceededCount() + " test(s) passed");
 * }</pre>
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface PrismTarget {
}

package dev.prism.examples;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code Path} test parameter as the directory to qualify: the system property
 * {@code prism.target} ({@code mvn test -Dprism.target=/mnt/nfs/prism}), or else a fresh temporary
 * directory removed after the test. Used with {@link PrismTargetExtension}.
 *
 * <pre>{@code
 * // @ExtendWith(PrismTargetExtension.class)
 * // class NfsAcceptanceTest { @Test void fast(@PrismTarget Path target) { ... } }
 * }</pre>
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface PrismTarget {
}

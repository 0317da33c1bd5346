package dev.prism.posix.internal;

import dev.prism.PrismException;

import java.util.Locale;

/**
 * Chooses, once per JVM, the binding that serves {@link SystemCalls}: {@code java.lang.foreign} on JDK 22 and later,
 * JNA on older JDKs. The system property {@value #PROPERTY} ({@code ffm}, {@code jna} or {@code auto}, the default)
 * forces one; asking for {@code ffm} on a JDK without it is an error, not a silent fall-back.
 */
public final class Binding {
    /** The system property that forces a binding. */
    public static final String PROPERTY = "prism.posix.binding";

    /** The binding in use; chosen when first needed. */
    static final SystemCalls CALLS = choose(System.getProperty(PROPERTY, "auto"), Runtime.version().feature());

    private Binding() {
    }

    static SystemCalls choose(String requested, int javaFeature) {
        switch (requested.toLowerCase(Locale.ROOT)) {
            case "jna":
                return new JnaSystemCalls();
            case "ffm":
                if (javaFeature < 22) {
                    throw new PrismException(PROPERTY + "=ffm needs JDK 22 or later (java.lang.foreign); this JVM is "
                            + Runtime.version() + ": use " + PROPERTY + "=jna or a newer JDK");
                }
                return new ForeignSystemCalls();
            case "auto":
                return javaFeature >= 22 ? new ForeignSystemCalls() : new JnaSystemCalls();
            default:
                throw new PrismException(PROPERTY + " is " + requested + "; it takes ffm, jna or auto");
        }
    }
}

package dev.prism.internal;

/**
 * Whether a person asked for Java's view of failures ({@code prism --verbose}, system property
 * {@code prism.verbose=true}): exception class names, the frame they were thrown at, causes. Without
 * it, users read the call, the path and errno only.
 */
public final class Verbose {
    /** The system property that turns it on; rank processes inherit it. */
    public static final String PROPERTY = "prism.verbose";

    private Verbose() {
    }

    /** @return true when failures are described with class names and frames */
    public static boolean enabled() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** @return the class, message, the frame it was thrown at and the cause */
    public static String describe(Throwable t) {
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            s.append(": ").append(t.getMessage());
        }
        StackTraceElement[] trace = t.getStackTrace();
        if (trace.length > 0) {
            s.append(" (at ").append(trace[0]).append(')');
        }
        if (t.getCause() != null && t.getCause() != t) {
            s.append("; caused by ").append(t.getCause().getClass().getName()).append(": ")
                    .append(t.getCause().getMessage());
        }
        return s.toString();
    }
}

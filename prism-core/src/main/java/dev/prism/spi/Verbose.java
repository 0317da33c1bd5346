package dev.prism.spi;

/**
 * Whether a person asked for Java's view of failures ({@code prism --verbose}, system property
 * {@code prism.verbose=true}): exception class names, their stack traces, causes. Without
 * it, users read the call, the path and errno only.
 *
 * <pre>{@code
 * import dev.prism.spi.Verbose;
 *
 * String message = "open(\"/mnt/x\"): Input/output error (EIO)";
 * System.out.println(Verbose.enabled() ? message + "\n" + Verbose.stackTrace(new Exception()) : message);
 * }</pre>
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

    /** @return {@code t}'s stack trace as Java prints it, causes included, for a person who asked for Java's view */
    public static String stackTrace(Throwable t) {
        java.io.StringWriter trace = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(trace));
        return trace.toString().stripTrailing();
    }
}

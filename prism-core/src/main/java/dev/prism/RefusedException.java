package dev.prism;

/**
 * A benchmark refused to start because what it was asked for does not fit: the target lacks the
 * space or inodes, this machine the memory. Thrown before anything is written; the run fails with
 * {@link Failure.Kind#REFUSED} and the {@code prism} command exits 2, as for any bad input.
 *
 * <pre>{@code
 * import dev.prism.RefusedException;
 *
 * var e = new RefusedException("files × file_size need 80 MB, but /mnt/x has 64 MB free; lower them");
 * System.out.println(e.getMessage());
 * }</pre>
 */
public class RefusedException extends PrismException {
    /** @param message what was asked, what is there, and what to change */
    public RefusedException(String message) {
        super(message);
    }
}

package dev.prism;

/**
 * Thrown by a {@link Workload#validate(WorkloadContext)} when what the workload produced is wrong
 * (a file with the wrong size, a checksum mismatch). The run then fails with kind
 * {@link Failure.Kind#VALIDATION}.
 *
 * <pre>{@code
 * import dev.prism.ValidationException;
 * import dev.prism.Workload;
 * import dev.prism.WorkloadContext;
 *
 * var workload = new Workload() {
 *     public void run(WorkloadContext ctx) {}
 *     public void validate(WorkloadContext ctx) {
 *         throw new ValidationException("file-0.dat: 0 bytes, expected 4096");
 *     }
 * };
 * }</pre>
 */
public class ValidationException extends PrismException {
    /** @param message what did not verify, naming the file or value */
    public ValidationException(String message) {
        super(message);
    }
}

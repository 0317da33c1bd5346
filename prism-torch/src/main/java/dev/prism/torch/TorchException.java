package dev.prism.torch;

import dev.prism.PrismException;

/**
 * torchrun, the Python interpreter or torch itself failed: missing, too old, or a worker crashed.
 * The message says what, with the exit code and the tail of the workers' output where there is one.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchException;
 * import dev.prism.torch.TorchRun;
 * import java.nio.file.Path;
 *
 * try {
 *     TorchRun.builder().python(Path.of("/no/python")).build().checkTorch();
 * } catch (TorchException e) {
 *     System.out.println(e.getMessage());
 * }
 * }</pre>
 */
public class TorchException extends PrismException {
    private final int exitCode;

    /** @param message what went wrong @param exitCode torchrun's exit code, or -1 */
    public TorchException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** @return torchrun's exit code, or -1 when it did not run */
    public int exitCode() {
        return exitCode;
    }
}

package dev.prism.posix;

import dev.prism.PrismException;

/**
 * A libc call failed. The message names the function, its arguments (paths quoted, flags by name)
 * and errno's symbolic name and number, e.g. {@code openat("ckpt/0001.bin", O_RDONLY): ENOENT (2)}.
 *
 * <pre>{@code
 * import dev.prism.posix.Posix;
 * import dev.prism.posix.PosixException;
 * import java.nio.file.Path;
 *
 * try {
 *     Posix.open(Path.of("/no/such/file"), Posix.O_RDONLY, 0);
 * } catch (PosixException e) {
 *     System.out.println(e.getMessage() + " → " + e.errnoName());
 * }
 * }</pre>
 */
public class PosixException extends PrismException {
    private final String function;
    private final String path;
    private final int errno;
    private final String errnoName;

    /**
     * @param function  the libc function, e.g. {@code openat}
     * @param arguments its arguments as written in the message, e.g. {@code "a.bin", O_RDONLY}
     * @param path      the path the call worked on, or null
     * @param errno     the error number
     * @param errnoName its symbolic name, e.g. {@code ENOENT}
     */
    public PosixException(String function, String arguments, String path, int errno, String errnoName) {
        super(function + "(" + arguments + "): " + errnoName + " (" + errno + ")");
        this.function = function;
        this.path = path;
        this.errno = errno;
        this.errnoName = errnoName;
    }

    /** @return the libc function that failed */
    public String function() {
        return function;
    }

    /** @return the path it worked on, or null */
    public String path() {
        return path;
    }

    /** @return the error number */
    public int errno() {
        return errno;
    }

    /** @return the error's symbolic name, e.g. {@code ENOSPC} */
    public String errnoName() {
        return errnoName;
    }
}

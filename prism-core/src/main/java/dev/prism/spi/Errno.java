package dev.prism.spi;

/**
 * Errno in messages, as PRISM writes them: symbolic names of Linux errno values (asm-generic numbering, shared by
 * x86-64 and aarch64), and a failed call named with its path and reason, never a Java class name.
 *
 * <pre>{@code
 * import dev.prism.spi.Errno;
 * import java.io.IOException;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * System.out.println(Errno.name(5) + " " + Errno.number("ENOSPC"));   // EIO 28
 * try {
 *     Files.readString(Path.of("/nonexistent/prism"));
 * } catch (IOException e) {
 *     System.out.println(Errno.named("open", Path.of("/nonexistent/prism"), e).getMessage());
 * }   // open("/nonexistent/prism"): No such file or directory (ENOENT)
 * }</pre>
 */
public final class Errno {
    private static final String[] NAMES = {"", "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
            "ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST",
            "EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG",
            "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK",
            "ENOSYS", "ENOTEMPTY", "ELOOP", "", "ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST",
            "ELNRNG", "EUNATCH", "ENOCSI", "EL2HLT", "EBADE", "EBADR", "EXFULL", "ENOANO", "EBADRQC", "EBADSLT",
            "", "EBFONT", "ENOSTR", "ENODATA", "ETIME", "ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV",
            "ESRMNT", "ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW", "ENOTUNIQ", "EBADFD",
            "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN", "ELIBMAX", "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE",
            "EUSERS", "ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT", "EPROTONOSUPPORT",
            "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT", "EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL",
            "ENETDOWN", "ENETUNREACH", "ENETRESET", "ECONNABORTED", "ECONNRESET", "ENOBUFS", "EISCONN", "ENOTCONN",
            "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT", "ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY",
            "EINPROGRESS", "ESTALE", "EUCLEAN", "ENOTNAM", "ENAVAIL", "EISNAM", "EREMOTEIO", "EDQUOT", "ENOMEDIUM",
            "EMEDIUMTYPE", "ECANCELED", "ENOKEY", "EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
            "ENOTRECOVERABLE", "ERFKILL", "EHWPOISON"};

    private Errno() {
    }

    /** @return {@code ENOENT} for 2; {@code errno 999} for a number it does not know */
    public static String name(int errno) {
        return errno > 0 && errno < NAMES.length && !NAMES[errno].isEmpty() ? NAMES[errno] : "errno " + errno;
    }

    /** @return the number named {@code name}, or -1 */
    public static int number(String name) {
        for (int i = 1; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** @return how many numbers the table covers */
    public static int size() {
        return NAMES.length;
    }

    // glibc's strerror texts of the errors storage returns, as Java's NIO reports them (FileSystemException.getReason)
    private static final java.util.Map<String, String> BY_TEXT = java.util.Map.ofEntries(
            java.util.Map.entry("Operation not permitted", "EPERM"),
            java.util.Map.entry("No such file or directory", "ENOENT"),
            java.util.Map.entry("Interrupted system call", "EINTR"),
            java.util.Map.entry("Input/output error", "EIO"),
            java.util.Map.entry("Bad file descriptor", "EBADF"),
            java.util.Map.entry("Resource temporarily unavailable", "EAGAIN"),
            java.util.Map.entry("Cannot allocate memory", "ENOMEM"),
            java.util.Map.entry("Permission denied", "EACCES"),
            java.util.Map.entry("Device or resource busy", "EBUSY"),
            java.util.Map.entry("File exists", "EEXIST"),
            java.util.Map.entry("Invalid cross-device link", "EXDEV"),
            java.util.Map.entry("Not a directory", "ENOTDIR"),
            java.util.Map.entry("Is a directory", "EISDIR"),
            java.util.Map.entry("Invalid argument", "EINVAL"),
            java.util.Map.entry("Too many open files in system", "ENFILE"),
            java.util.Map.entry("Too many open files", "EMFILE"),
            java.util.Map.entry("File too large", "EFBIG"),
            java.util.Map.entry("No space left on device", "ENOSPC"),
            java.util.Map.entry("Read-only file system", "EROFS"),
            java.util.Map.entry("Too many links", "EMLINK"),
            java.util.Map.entry("File name too long", "ENAMETOOLONG"),
            java.util.Map.entry("No locks available", "ENOLCK"),
            java.util.Map.entry("Function not implemented", "ENOSYS"),
            java.util.Map.entry("Directory not empty", "ENOTEMPTY"),
            java.util.Map.entry("Too many levels of symbolic links", "ELOOP"),
            java.util.Map.entry("No data available", "ENODATA"),
            java.util.Map.entry("Operation not supported", "EOPNOTSUPP"),
            java.util.Map.entry("Transport endpoint is not connected", "ENOTCONN"),
            java.util.Map.entry("Connection timed out", "ETIMEDOUT"),
            java.util.Map.entry("Stale file handle", "ESTALE"),
            java.util.Map.entry("Remote I/O error", "EREMOTEIO"),
            java.util.Map.entry("Disk quota exceeded", "EDQUOT"),
            java.util.Map.entry("Operation canceled", "ECANCELED"));

    private static final java.util.Map<String, String> TEXT_BY_NAME = BY_TEXT.entrySet().stream()
            .collect(java.util.stream.Collectors.toUnmodifiableMap(java.util.Map.Entry::getValue, java.util.Map.Entry::getKey));

    /** @return {@code EIO} for glibc's "Input/output error", or null for a text it does not know */
    public static String ofText(String strerror) {
        return strerror == null ? null : BY_TEXT.get(strerror);
    }

    /**
     * @return the symbolic errno an NIO failure stands for — from its type ({@code NoSuchFileException}
     *         is ENOENT) or glibc's text in its reason — or null when neither tells
     */
    public static String nameOf(java.io.IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "ENOENT";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return "EEXIST";
        }
        if (e instanceof java.nio.file.DirectoryNotEmptyException) {
            return "ENOTEMPTY";
        }
        if (e instanceof java.nio.file.NotDirectoryException) {
            return "ENOTDIR";
        }
        String reason = e instanceof java.nio.file.FileSystemException f ? f.getReason() : e.getMessage();
        if (reason == null && e instanceof java.nio.file.AccessDeniedException) {
            return "EACCES";
        }
        return ofText(reason);
    }

    /**
     * @return the reason of an NIO failure as a person reads it: glibc's text and the symbolic name,
     *         e.g. {@code Input/output error (EIO)}; never a Java class name
     */
    public static String describe(java.io.IOException e) {
        String name = nameOf(e);
        if (name != null) {
            return TEXT_BY_NAME.get(name) + " (" + name + ")";
        }
        if (e instanceof java.nio.channels.ClosedByInterruptException) {
            // no errno: Java closed the file under a thread that was interrupted (told to stop)
            return "interrupted: the file was closed under a thread told to stop (no error of the storage)";
        }
        if (e instanceof java.nio.channels.AsynchronousCloseException) {
            return "the file was closed by another thread while in use (no error of the storage)";
        }
        String reason = e instanceof java.nio.file.FileSystemException f ? f.getReason() : e.getMessage();
        return reason != null ? reason : "I/O error (no errno given)";
    }

    /** @return {@code call("path"): reason (ERRNO)}, how PRISM names a failed call */
    public static String failedCall(String call, java.nio.file.Path path, String reason) {
        return call + "(\"" + path + "\"): " + reason;
    }

    /** @return {@code e} as an IOException that says {@code call("path"): reason (ERRNO)} */
    public static java.io.IOException named(String call, java.nio.file.Path path, java.io.IOException e) {
        return new java.io.IOException(failedCall(call, path, describe(e)), e);
    }
}

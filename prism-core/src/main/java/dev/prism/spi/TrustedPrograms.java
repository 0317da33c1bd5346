package dev.prism.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the programs PRISM starts come from, and what they inherit. A program named without a directory ({@code git},
 * {@code tar}, {@code srun}) is taken only from {@link #PATH}, a fixed list of system directories, never from the
 * {@code $PATH} PRISM was given or the working directory; a program named by its path must be trusted as a directory
 * PRISM writes to is: owned by root or this user, not writable by others, nor any directory on its path (or on the
 * path its links resolve to) — so that no other user of the machine can decide what root runs. A child's environment
 * is built from an allowlist ({@link #environment}): no {@code PRISM_PUSH_AUTH}, {@code PRISM_RUN_SECRET} or other
 * credential reaches it unless the caller adds it for a child that needs it.
 *
 * <pre>{@code
 * import dev.prism.spi.TrustedPrograms;
 *
 * System.out.println(TrustedPrograms.find("sh").isPresent());              // true: /usr/bin/sh or /bin/sh
 * System.out.println(TrustedPrograms.environment().get("PATH"));           // the fixed PATH
 * System.out.println(TrustedPrograms.environment().containsKey("PRISM_PUSH_AUTH")); // false
 * }</pre>
 */
public final class TrustedPrograms {
    /** The directories a program named without one is looked for in, in order; also the children's {@code PATH}. */
    public static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /**
     * The operator's own additions to the allowlist: a comma-separated list of variable names
     * ({@code PRISM_PASS_ENV=LD_LIBRARY_PATH,CUDA_HOME}) passed to every child as they are.
     */
    public static final String PASS_ENV = "PRISM_PASS_ENV";
    /** Variables every child gets as PRISM got them: who and where it is, language, and the runtimes' tuning. */
    private static final List<String> NAMES = List.of("HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM",
            "TMPDIR", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "HF_HUB_OFFLINE",
            "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE");
    /**
     * Families of variables passed as they are: locale, thread and accelerator tuning, the scheduler's view of the job
     * (srun inside an allocation reads it), and the settings of the package tools the environment benchmarks run.
     */
    private static final List<String> PREFIXES = List.of("LC_", "OMP_", "MKL_", "OPENBLAS_", "NCCL_", "GLOO_", "NVIDIA_",
            "SLURM_", "PMI_", "PMIX_", "PIP_", "UV_", "CONDA_");
    /** Never passed whatever the lists say: PRISM's own credentials. */
    private static final List<String> NEVER = List.of("PRISM_PUSH_AUTH", "PRISM_RUN_SECRET");

    private TrustedPrograms() {
    }

    /** @return the first executable {@code name} in {@link #PATH} that passes {@link #check}, if any */
    public static Optional<Path> find(String name) {
        if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("program name " + name + " must be a bare name, without '/'");
        }
        for (String dir : PATH.split(":")) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                try {
                    return Optional.of(check(candidate, name));
                } catch (IllegalArgumentException | IOException untrusted) {
                    // another user could change it: not taken; a later directory may hold a trusted one
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @return {@code command} with its program resolved: a bare name through {@link #find}, a path {@link #check}ed
     * @throws IOException naming the program when it is not found or not trusted
     */
    public static List<String> resolve(List<String> command) throws IOException {
        String program = command.get(0);
        Path resolved;
        if (!program.contains("/")) {
            resolved = find(program).orElseThrow(() -> new java.nio.file.NoSuchFileException(program, null,
                    program + " is not installed in " + PATH + " (PRISM runs programs only from there, or from a path"
                            + " given explicitly)"));
        } else {
            try {
                resolved = check(Path.of(program), "program");
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        java.util.ArrayList<String> out = new java.util.ArrayList<>(command);
        out.set(0, resolved.toString());
        return out;
    }

    /**
     * Checks that only root or this user can change {@code program}: the file (and the file its links resolve to) owned
     * by one of them and not writable by group or others, and every directory on both paths passing the test
     * {@code --out} passes.
     *
     * @param what what the program is, for messages ({@code Python interpreter})
     * @return {@code program}, absolute
     * @throws IllegalArgumentException naming the file or directory another user could change, its owner and mode
     */
    public static Path check(Path program, String what) throws IOException {
        Path absolute = program.toAbsolutePath().normalize();
        if (!Files.exists(absolute)) {
            throw new IllegalArgumentException(what + " " + absolute + " does not exist");
        }
        Path real = absolute.toRealPath();
        if (!Files.isRegularFile(real) || !Files.isExecutable(real)) {
            throw new IllegalArgumentException(what + " " + absolute + " is not an executable file");
        }
        int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        for (Path file : List.of(absolute, real)) {
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            boolean link = Files.isSymbolicLink(file);
            if (owner != 0 && owner != self) {
                throw new IllegalArgumentException(what + " " + absolute + " is refused: " + file + " belongs to uid "
                        + owner + ", who could change what runs as " + System.getProperty("user.name"));
            }
            if (!link && (mode & 022) != 0) {
                throw new IllegalArgumentException(what + " " + absolute + " is refused: " + file + " may be written by"
                        + " others (mode " + String.format("%04o", mode & 07777) + "), who could change what runs as "
                        + System.getProperty("user.name"));
            }
        }
        for (Path directory : List.of(absolute.getParent(), real.getParent())) {
            var exposed = Directories.exposure(directory);
            if (exposed.isPresent()) {
                throw new IllegalArgumentException(what + " " + absolute + " is refused: " + exposed.get().directory()
                        + " on its path " + exposed.get().who() + ", who could put another program in its place to run as "
                        + System.getProperty("user.name"));
            }
        }
        return absolute;
    }

    /**
     * @return the environment a child starts from: {@code PATH} set to {@link #PATH}, and of PRISM's own environment
     *         only the allowlisted variables (and those named in {@value #PASS_ENV}), never a credential of PRISM's
     */
    public static Map<String, String> environment() {
        return environment(System.getenv());
    }

    /** @return {@link #environment()} as it is built from {@code inherited} */
    static Map<String, String> environment(Map<String, String> inherited) {
        List<String> extra = List.of(inherited.getOrDefault(PASS_ENV, "").split(","));
        Map<String, String> env = new TreeMap<>();
        inherited.forEach((name, value) -> {
            boolean allowed = NAMES.contains(name) || PREFIXES.stream().anyMatch(name::startsWith)
                    || extra.contains(name.strip());
            if (allowed && !NEVER.contains(name)) {
                env.put(name, value);
            }
        });
        env.put("PATH", PATH);
        return env;
    }
}

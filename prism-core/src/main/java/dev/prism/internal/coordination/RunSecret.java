package dev.prism.internal.coordination;

import dev.prism.PrismException;
import dev.prism.spi.Errno;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The secret a run's ranks share and nobody else knows: a rank proves with it that it belongs to the run before
 * anything it says is believed, and the coordinator proves the same to the rank (SLURM's munge key plays this part
 * for SLURM itself). It never appears in a result, a log line or a message: only keyed digests made with it do.
 *
 * <p>Where it comes from: the processes launcher makes a fresh one per launcher and hands it to its child ranks in
 * their environment ({@value #ENVIRONMENT}), which only their owner and root can read. The tasks of a SLURM step take
 * it from that variable when srun carried it from the launching user's environment ({@code prism sbatch} exports a
 * fresh one per job), else from a file only that user may read: {@value #FILE_ENVIRONMENT}, else
 * {@code ~/.prism/run-secret}, made (mode 0600, in a 0700 directory) by the first task that finds none. Never from
 * the shared target.
 */
public final class RunSecret {
    /** The environment variable carrying the secret, in hexadecimal, to a run's other processes. */
    public static final String ENVIRONMENT = "PRISM_RUN_SECRET";
    /** The environment variable naming a file that holds the secret. */
    public static final String FILE_ENVIRONMENT = "PRISM_RUN_SECRET_FILE";
    private static final int BYTES = 32;
    /** The fewest bytes a given secret may have (32 hex digits). */
    private static final int MIN_BYTES = 16;
    private static final int MAX_FILE_BYTES = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;
    /** What every proof made with this secret is bound to: a SLURM job and step, or a run; empty when unbound */
    private final String binding;

    private RunSecret(byte[] key) {
        this(key, "");
    }

    private RunSecret(byte[] key, String binding) {
        this.key = key.clone();
        this.binding = binding;
    }

    /**
     * @param binding the job and step, or the run, this secret serves: a rank proves it knows the secret for this
     *                binding, so a rank of another step with the same secret (a long-lived {@code ~/.prism/run-secret})
     *                is refused by this step's coordinator, and this step's coordinator by that rank
     * @return this secret, bound to {@code binding}
     */
    public RunSecret boundTo(String binding) {
        return new RunSecret(key, binding);
    }

    /** @return what this secret's proofs are bound to (not secret: both sides know it) */
    String binding() {
        return binding;
    }

    /** @return a fresh random secret */
    public static RunSecret generate() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return new RunSecret(key);
    }

    /** @return {@code n} random bytes, for nonces */
    static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /**
     * @return the secret of {@code hex} (at least 32 hexadecimal digits)
     * @throws PrismException saying what is wrong, never repeating the text
     */
    public static RunSecret ofHex(String hex, String where) {
        String text = hex == null ? "" : hex.strip();
        if (text.length() < 2 * MIN_BYTES || text.length() % 2 != 0 || !text.matches("[0-9a-fA-F]+")) {
            throw new PrismException("the run secret in " + where + " must be at least " + 2 * MIN_BYTES
                    + " hexadecimal digits (e.g. from `openssl rand -hex 32`); it has " + text.length() + " characters"
                    + (text.matches("[0-9a-fA-F]*") ? "" : ", not all hexadecimal digits"));
        }
        return new RunSecret(HexFormat.of().parseHex(text));
    }

    /** @return the secret as hexadecimal digits, for the environment of a child rank and nothing else */
    public String hex() {
        return HexFormat.of().formatHex(key);
    }

    /**
     * The secret of a SLURM step's task: {@value #ENVIRONMENT}, else the file {@value #FILE_ENVIRONMENT} names, else
     * {@code ~/.prism/run-secret} (made when missing); bound to the step's {@code SLURM_JOB_ID} and {@code SLURM_STEP_ID}.
     *
     * @throws PrismException naming the file and what is wrong with it (a link, another owner, readable by others…)
     */
    public static RunSecret forStep(Map<String, String> environment) {
        String step = "SLURM job " + environment.getOrDefault("SLURM_JOB_ID", "").strip() + " step "
                + environment.getOrDefault("SLURM_STEP_ID", "").strip();
        String hex = environment.get(ENVIRONMENT);
        if (hex != null && !hex.isBlank()) {
            return ofHex(hex, "$" + ENVIRONMENT).boundTo(step);
        }
        String named = environment.get(FILE_ENVIRONMENT);
        if (named != null && !named.isBlank()) {
            return fromFile(Path.of(named), false).boundTo(step);
        }
        String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
        return fromFile(Path.of(home, ".prism", "run-secret"), true).boundTo(step);
    }

    /**
     * @param create whether to make the file (and its directory, 0700) when it is missing
     * @return the secret in {@code file}: a regular file of this user, not a link, no one else may read or write it
     */
    static RunSecret fromFile(Path file, boolean create) {
        try {
            if (create && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                make(file);
            }
            PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw new PrismException("the run secret file " + file + " is not a regular file" + (attributes.isSymbolicLink()
                        ? " (a symbolic link: refused, as anyone who can change it could make PRISM read another file)" : ""));
            }
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (owner != self) {
                throw new PrismException("the run secret file " + file + " belongs to uid " + owner + ", not to this user (uid "
                        + self + "): refused");
            }
            Set<PosixFilePermission> others = Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                    PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
            if (attributes.permissions().stream().anyMatch(others::contains)) {
                throw new PrismException("the run secret file " + file + " has mode "
                        + PosixFilePermissions.toString(attributes.permissions()) + ": others may read or change it; refused"
                        + " (chmod 600 " + file + ")");
            }
            if (attributes.size() > MAX_FILE_BYTES) {
                throw new PrismException("the run secret file " + file + " holds " + attributes.size() + " bytes, over "
                        + MAX_FILE_BYTES + ": refused");
            }
            return ofHex(new String(Files.readAllBytes(file), StandardCharsets.US_ASCII), file.toString());
        } catch (NoSuchFileException e) {
            throw new PrismException("no run secret: set " + ENVIRONMENT + " (e.g. export " + ENVIRONMENT
                    + "=$(openssl rand -hex 32) before srun) or make " + file + " (mode 600)", e);
        } catch (IOException e) {
            throw new PrismException("cannot read the run secret file " + file + ": " + Errno.describe(e), e);
        }
    }

    /** Makes {@code file} with a fresh secret, mode 0600, atomically: a task that loses the race reads the winner's. */
    private static void make(Path file) throws IOException {
        Path directory = file.getParent();
        try {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // there already: its file is checked below
        }
        Path temporary = directory.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(temporary);
        Files.write(Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
                (generate().hex() + "\n").getBytes(StandardCharsets.US_ASCII));
        try {
            Files.createLink(file, temporary); // fails when another task made it first
        } catch (FileAlreadyExistsException e) {
            // that task's secret is the step's
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** @return HMAC-SHA256 of {@code parts}, each preceded by its length so no two lists of parts give the same input */
    byte[] mac(byte[]... parts) {
        return keyed(key, parts);
    }

    static byte[] keyed(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(java.nio.ByteBuffer.allocate(4).putInt(part.length).array());
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "RunSecret[hidden]";
    }
}

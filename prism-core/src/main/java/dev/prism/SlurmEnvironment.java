package dev.prism;

import java.util.Map;
import java.util.Optional;

/**
 * Where this process sits in a SLURM job step: its rank ({@code SLURM_PROCID}), the world size
 * ({@code SLURM_NTASKS}), its node ({@code SLURM_NODEID}) and, where {@code MASTER_ADDR} and
 * {@code MASTER_PORT} are set, the coordinator's fixed address. Without them rank 0 listens on a port
 * the kernel picks, on whichever node SLURM placed it, and publishes its host and port in
 * {@link #endpointFile(java.nio.file.Path) a file of the target} that the other ranks read: no node
 * is assumed to host rank 0, and no derived port can collide with another step's.
 *
 * <pre>{@code
 * import dev.prism.SlurmEnvironment;
 * import java.util.Map;
 *
 * var env = SlurmEnvironment.from(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "8",
 *         "SLURM_STEP_NODELIST", "gpu[007-010]", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0"));
 * System.out.println(env.orElseThrow());
 * }</pre>
 *
 * @param rank            this process's rank
 * @param worldSize       ranks in the step
 * @param nodeId          this process's node index in the step
 * @param coordinatorHost {@code MASTER_ADDR}, or empty: rank 0 publishes its own host
 * @param coordinatorPort {@code MASTER_PORT}, or 0: rank 0 listens on a port the kernel picks and publishes it
 * @param step            the job step, {@code <SLURM_JOB_ID>.<SLURM_STEP_ID>} ({@code 0.0} when unset): the
 *                        same in every rank of the step and in no other step of the cluster
 */
public record SlurmEnvironment(int rank, int worldSize, int nodeId, String coordinatorHost, int coordinatorPort,
                               String step) {
    /** @return the environment of this process, or empty when it is not a SLURM task */
    public static Optional<SlurmEnvironment> current() {
        return from(System.getenv());
    }

    /**
     * @return the SLURM position described by {@code env}, or empty without {@code SLURM_PROCID}
     * @throws IllegalArgumentException naming the variable when one is malformed
     */
    public static Optional<SlurmEnvironment> from(Map<String, String> env) {
        if (!env.containsKey("SLURM_PROCID")) {
            return Optional.empty();
        }
        int rank = integer(env, "SLURM_PROCID", null);
        int size = integer(env, "SLURM_NTASKS", env.get("SLURM_NPROCS"));
        int node = env.containsKey("SLURM_NODEID") ? integer(env, "SLURM_NODEID", null) : 0;
        String host = env.getOrDefault("MASTER_ADDR", "").strip();
        long job = digits(env.get("SLURM_JOB_ID"));
        long step = digits(env.get("SLURM_STEP_ID"));
        int port = env.containsKey("MASTER_PORT") ? integer(env, "MASTER_PORT", null) : 0;
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("SLURM_PROCID must be in 0.." + (size - 1) + ", was " + rank);
        }
        return Optional.of(new SlurmEnvironment(rank, size, node, host, port, job + "." + step));
    }

    /** @return whether rank 0 publishes where it listens (no fixed {@code MASTER_ADDR} and {@code MASTER_PORT}) */
    public boolean publishesCoordinator() {
        return coordinatorHost.isEmpty() || coordinatorPort == 0;
    }

    /**
     * @return the file in {@code target} where rank 0 of this step publishes its host and port, and every
     *         other rank reads them; named after the step, removed when the step's runs end
     */
    public java.nio.file.Path endpointFile(java.nio.file.Path target) {
        return target.resolve(".prism-step-" + step + ".coordinator");
    }

    /**
     * @return where this step's ranks meet inside a shared {@code coordinationDirectory}: a subdirectory
     *         named after the step, so files another step left there are never read as this one's
     */
    public java.nio.file.Path meetingDirectory(java.nio.file.Path coordinationDirectory) {
        return coordinationDirectory.resolve("prism-step-" + step);
    }

    /** @return the number in a SLURM id, 0 when unset or not a number (as the {@code batch} step's) */
    private static long digits(String id) {
        try {
            return id == null ? 0 : Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int integer(Map<String, String> env, String name, String fallback) {
        String value = env.getOrDefault(name, fallback);
        try {
            return Integer.parseInt(value.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(name + " must be an integer, was " + (value == null ? "unset" : "'" + value + "'"));
        }
    }

    /** @return the first host of a SLURM host list: {@code gpu[007-010,012],cpu1} → {@code gpu007} */
    public static String firstHost(String hostList) {
        java.util.List<String> hosts = dev.prism.internal.launch.SlurmLayout.hosts(hostList);
        return hosts.isEmpty() ? "" : hosts.get(0);
    }

    /** SLURM's KillWait when slurm.conf does not set it (slurm.conf(5)): 30 seconds */
    public static final java.time.Duration DEFAULT_KILL_WAIT = java.time.Duration.ofSeconds(30);

    /**
     * @return SLURM's KillWait, the time between the SIGTERM that ends a step's tasks (scancel, a time limit, a
     *         failed node) and their SIGKILL: read from the slurm.conf of {@code SLURM_CONF} in {@code env} (set in
     *         tasks of a configless cluster too), else {@code /etc/slurm/slurm.conf} or
     *         {@code /etc/slurm-llnl/slurm.conf}; {@link #DEFAULT_KILL_WAIT} when none of them says
     */
    public static java.time.Duration killWait(Map<String, String> env) {
        java.util.List<java.nio.file.Path> places = new java.util.ArrayList<>();
        String conf = env.get("SLURM_CONF");
        if (conf != null && !conf.isBlank()) {
            places.add(java.nio.file.Path.of(conf));
        }
        places.add(java.nio.file.Path.of("/etc/slurm/slurm.conf"));
        places.add(java.nio.file.Path.of("/etc/slurm-llnl/slurm.conf"));
        for (java.nio.file.Path place : places) {
            try {
                return killWaitIn(java.nio.file.Files.readAllLines(place)).orElse(DEFAULT_KILL_WAIT);
            } catch (java.io.IOException | RuntimeException e) {
                // not there or not readable here: the next place, or SLURM's default
            }
        }
        return DEFAULT_KILL_WAIT;
    }

    /** @return the {@code KillWait=SECONDS} of slurm.conf lines (keys in any case, comments ignored), if one is set */
    static Optional<java.time.Duration> killWaitIn(java.util.List<String> lines) {
        Optional<java.time.Duration> found = Optional.empty();
        for (String line : lines) {
            String setting = line.replaceFirst("#.*", "").strip();
            int equals = setting.indexOf('=');
            if (equals > 0 && setting.substring(0, equals).strip().equalsIgnoreCase("KillWait")) {
                String value = setting.substring(equals + 1).strip();
                if (value.matches("\\d{1,6}")) {
                    found = Optional.of(java.time.Duration.ofSeconds(Long.parseLong(value))); // the last one counts
                }
            }
        }
        return found;
    }
}

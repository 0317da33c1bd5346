package dev.prism.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What a test needs from the machine, checked the same way everywhere: without it the test is
 * skipped with the reason, unless the variable scripts/test.sh sets where it installed and started
 * that thing (PRISM_REQUIRE_SLURM=1, PRISM_REQUIRE_TORCH=1) says it must be there, which turns its
 * absence into a failure.
 */
public final class Required {
    private Required() {
    }

    /** Skips (or fails, under PRISM_REQUIRE_SLURM=1) unless a SLURM node answers idle, mixed or allocated. */
    public static void slurm() {
        boolean up;
        try {
            Process sinfo = new ProcessBuilder("sinfo", "-h", "-o", "%t").redirectErrorStream(true).start();
            String states = new String(sinfo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            up = sinfo.waitFor(20, TimeUnit.SECONDS) && sinfo.exitValue() == 0 && states.matches("(?s).*(idle|mix|alloc).*");
        } catch (IOException e) {
            up = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            up = false;
        }
        require(up, "PRISM_REQUIRE_SLURM", "no SLURM node is up: run scripts/slurm-up.sh as root");
    }

    /**
     * Skips (or fails, under {@code variable}=1) unless {@code present}.
     *
     * @param why what is missing and how to get it
     */
    public static void require(boolean present, String variable, String why) {
        if (!present && "1".equals(System.getenv(variable))) {
            throw new AssertionError(variable + "=1 but " + why);
        }
        Assumptions.assumeTrue(present, why);
    }
}

package dev.prism.internal.coordination;

import dev.prism.spi.AtomicFiles;
import dev.prism.internal.output.Durations;
import dev.prism.spi.Errno;

import dev.prism.PrismException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * Where a SLURM step's rank 0 listens, published as one line {@code HOST PORT} in a file of the
 * shared target (written to a temporary name and renamed, so a reader never sees half of it), so the
 * other ranks find rank 0 on whichever node SLURM placed it, on a port the kernel chose.
 */
public final class CoordinatorEndpoint {
    private static final long POLL_MILLIS = 100;

    private CoordinatorEndpoint() {
    }

    /** Writes {@code host port} to {@code file} atomically. */
    public static void publish(Path file, String host, int port) throws IOException {
        AtomicFiles.write(file, (host + " " + port + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Removes the published file, if it is there (never following a link: it is a plain file or nothing). */
    public static void withdraw(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // left in the target, named after its step: no other step ever reads it
        }
    }

    /**
     * @return the file's text: a regular file (never through a link: anyone may plant one in a shared target) of at
     *         most 512 bytes; a coordinator it names must still prove it belongs to the run before a rank obeys it
     */
    private static String readBounded(Path file) throws IOException {
        String text = dev.prism.internal.files.SmallFile.readNoFollow(file, 512);
        if (text == null) {
            throw new IOException(file + " is not a regular file of at most 512 bytes");
        }
        return text;
    }

    /**
     * @param rank     the waiting rank, for the message
     * @param deadline when to give up
     * @param stop     true when the rank was told to stop (a signal) while waiting
     * @return the TCP rendezvous rank 0 published in {@code file}
     * @throws PrismException naming the file when nothing was published before the deadline
     */
    public static Rendezvous await(Path file, int rank, Instant deadline, BooleanSupplier stop) throws InterruptedException {
        Instant start = Instant.now();
        while (true) {
            try {
                String[] line = readBounded(file).strip().split("\\s+");
                if (line.length == 2 && line[1].matches("\\d{1,5}")) {
                    return Rendezvous.tcp(line[0], Integer.parseInt(line[1]));
                }
            } catch (NoSuchFileException e) {
                // not published yet
            } catch (IOException e) {
                throw new PrismException("rank " + rank + " cannot read the coordinator's address from " + file + ": "
                        + Errno.describe(e), e);
            }
            if (stop.getAsBoolean()) {
                throw new PrismException("rank " + rank + " was stopped while waiting for rank 0 to publish its address in "
                        + file);
            }
            if (!Instant.now().isBefore(deadline)) {
                throw new PrismException("rank " + rank + " found no coordinator: rank 0 published no address in " + file
                        + " within " + Durations.approximately(Duration.between(start, deadline)) + " (did rank 0 start, and do"
                        + " all nodes share the target? On a node-local target give MASTER_ADDR and MASTER_PORT, or"
                        + " --coordinator file:DIR on a shared directory)");
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}

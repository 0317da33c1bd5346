package dev.prism.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class HeldDirectoryTest {

    @Test
    void aHeldDirectoryRenamedAndReplacedByALink_isStillTheOneWrittenTo(@TempDir Path dir) throws IOException {
        Path out = Files.createDirectory(dir.resolve("out"));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        try (HeldDirectory held = HeldDirectory.open(out)) {
            Files.move(out, dir.resolve("moved"));
            Files.createSymbolicLink(out, elsewhere);
            held.writeAtomically("result.json", "{}".getBytes(StandardCharsets.UTF_8), 0644);
            try (HeldDirectory sub = held.makeOrKeepDirectory("rank-0", 0700)) {
                sub.writeNew("data", new byte[3], 0600);
            }
        }
        assertThat(elsewhere).isEmptyDirectory();
        assertThat(dir.resolve("moved/result.json")).hasContent("{}");
        assertThat(dir.resolve("moved/rank-0/data")).hasSize(3);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("moved/result.json"))))
                .isEqualTo("rw-r--r--");
    }

    /**
     * openOwned, as the torch launcher holds a run directory: a link in the directory's own place is refused (open
     * would resolve it, as it resolves a configured path), and so is another user's directory put there.
     */
    @Test
    void openOwned_refusesALinkInTheDirectorysPlace_andAnotherUsersDirectory(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectory(dir.resolve("prism-run"));
        try (HeldDirectory held = HeldDirectory.openOwned(run)) {
            held.writeNew("made", new byte[1], 0600);
        }
        assertThat(run.resolve("made")).hasSize(1);

        Path linked = Files.createSymbolicLink(dir.resolve("prism-linked"), run);
        assertThatThrownBy(() -> HeldDirectory.openOwned(linked)).isInstanceOf(IOException.class)
                .hasMessageContaining(linked.toString());

        dev.prism.testing.Required.root("giving a directory to another user needs root");
        Path foreign = Files.createDirectory(dir.resolve("prism-foreign"));
        Files.setAttribute(foreign, "unix:uid", 65534);
        assertThatThrownBy(() -> HeldDirectory.openOwned(foreign)).isInstanceOf(java.nio.file.AccessDeniedException.class)
                .hasMessageContaining(foreign.toString()).hasMessageContaining("is owned by uid 65534");
    }

    /** openRun: the run directory must hold the mark of the run asked for; another of this user's directories is not it */
    @Test
    void openRun_takesOnlyTheDirectoryMarkedAsThatRuns(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectory(dir.resolve("prism-r1"));
        assertThatThrownBy(() -> HeldDirectory.openRun(run, "r1")).isInstanceOf(java.nio.file.AccessDeniedException.class)
                .hasMessageContaining(run.toString()).hasMessageContaining("holds no PRISM run mark");
        try (HeldDirectory held = HeldDirectory.openOwned(run)) {
            held.markRun("r1");
        }
        assertThat(run.resolve(HeldDirectory.RUN_MARK)).hasContent("r1\n");
        try (HeldDirectory held = HeldDirectory.openRun(run, "r1")) {
            assertThat(held.runMark()).isEqualTo("r1");
        }
        assertThatThrownBy(() -> HeldDirectory.openRun(run, "r2")).isInstanceOf(java.nio.file.AccessDeniedException.class)
                .hasMessageContaining("is marked as run r1's, not run r2's");
        // a link as the mark is not read through
        Files.delete(run.resolve(HeldDirectory.RUN_MARK));
        Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "r1\n");
        Files.createSymbolicLink(run.resolve(HeldDirectory.RUN_MARK), elsewhere);
        assertThatThrownBy(() -> HeldDirectory.openRun(run, "r1")).hasMessageContaining("holds no PRISM run mark");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLinkOnTheWayDown_isRefusedNotFollowed(boolean openat2, @TempDir Path dir) throws IOException {
        boolean was = HeldDirectory.preferOpenat2(openat2);
        try {
            Path outside = Files.createDirectory(dir.resolve("outside"));
            Files.writeString(outside.resolve("secret"), "s3cret");
            Path root = Files.createDirectory(dir.resolve("root"));
            Files.createDirectory(root.resolve("a"));
            Files.createSymbolicLink(root.resolve("a/b"), outside);
            try (HeldDirectory held = HeldDirectory.open(root)) {
                assertThatThrownBy(() -> held.openDirectory("a/b")).hasMessageContaining("root/a/b")
                        .hasMessageContaining("ELOOP");
                assertThatThrownBy(() -> held.openInput("a/b/secret", 100, "manifest entry"))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symbolic link");
                assertThatThrownBy(() -> held.openDirectory("a/../../outside")).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("'..' component");
                assertThatThrownBy(() -> held.openInput("/etc/passwd", 100, "manifest entry"))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be relative");
                Files.createSymbolicLink(root.resolve("leaf"), outside.resolve("secret"));
                assertThatThrownBy(() -> held.openInput("leaf", 100, "manifest entry"))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symbolic link");
            }
        } finally {
            HeldDirectory.preferOpenat2(was);
        }
    }

    @Test
    void aFifoOrADevice_isRefusedOnTheDescriptorWithoutBlocking(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("result.json");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        // no writer ever opens the FIFO: an open that blocked would never return
        assertThatThrownBy(() -> InputFiles.open(fifo, 100, "result document"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("result document " + fifo + " is a FIFO, not a regular file");
        assertThatThrownBy(() -> InputFiles.readText(Path.of("/dev/zero"), 100, "gate file"))
                .hasMessage("gate file /dev/zero is a character device, not a regular file");
    }

    /**
     * A neighbour who may write the directory swaps a FIFO and a document in and out under the same name as fast as it
     * can while PRISM reads it: every read either gets the document or refuses the FIFO, none hangs. Checking the name
     * and then opening it (as PRISM did) blocks forever once the FIFO lands between the two.
     */
    @Test
    void aFifoSwappedInBetweenReads_neverHangsTheReader(@TempDir Path dir) throws Exception {
        Path name = dir.resolve("run.json");
        Path document = dir.resolve("document");
        Path fifo = dir.resolve("fifo");
        Files.writeString(document, "{}");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> swapperFailed = new AtomicReference<>();
        Thread swapper = new Thread(() -> {
            try {
                while (!stop.get()) {
                    Files.createLink(dir.resolve("next"), document);
                    Files.move(dir.resolve("next"), name, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(fifo, name, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(name, fifo, StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (Throwable e) {
                swapperFailed.set(e);
            }
        });
        swapper.start();
        AtomicInteger documents = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try {
            // a deadline only for the failure: a reader that blocked on the FIFO would never return
            assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
                while (documents.get() < 200 || refused.get() < 20) {
                    try (InputStream in = InputFiles.open(name, 100, "result document")) {
                        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{}");
                        documents.incrementAndGet();
                    } catch (IllegalArgumentException e) {
                        // between two renames the name is missing for a moment
                        assertThat(e.getMessage()).matches(".*(is a FIFO, not a regular file|does not exist)");
                        if (e.getMessage().endsWith("FIFO, not a regular file")) {
                            refused.incrementAndGet();
                        }
                    }
                }
            });
        } finally {
            stop.set(true);
            swapper.join();
        }
        assertThat(swapperFailed.get()).isNull();
    }

    /**
     * Another user who may write the directory renames a link to a root-only file over every name PRISM creates there,
     * the moment it appears (inotify). Reopening the temporary file by name to write it, or changing its mode by name,
     * would write the document into the root-only file and leave it readable by all; through the exclusive create's own
     * descriptor neither can happen.
     */
    @Test
    void aLinkRenamedOverTheTemporaryName_neverRedirectsTheWrite(@TempDir Path dir) throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "root only");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger swaps = new AtomicInteger();
        AtomicReference<Throwable> neighbourFailed = new AtomicReference<>();
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            shared.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            Thread neighbour = new Thread(() -> {
                int n = 0;
                try {
                    while (!stop.get()) {
                        WatchKey key = watch.poll(10, java.util.concurrent.TimeUnit.MILLISECONDS);
                        if (key == null) {
                            continue;
                        }
                        for (var event : key.pollEvents()) {
                            if (!(event.context() instanceof Path created) || !created.toString().endsWith(".tmp")) {
                                continue;
                            }
                            Path link = shared.resolve("link-" + n++);
                            Files.createSymbolicLink(link, secret);
                            try {
                                Files.move(link, shared.resolve(created), StandardCopyOption.ATOMIC_MOVE);
                                swaps.incrementAndGet();
                            } catch (IOException gone) {
                                Files.deleteIfExists(link);
                            }
                        }
                        key.reset();
                    }
                } catch (Throwable e) {
                    neighbourFailed.set(e);
                }
            });
            neighbour.start();
            try {
                for (int i = 0; i < 300 || swaps.get() < 20; i++) {
                    String written = "{\"n\": " + i + "}";
                    try {
                        AtomicFiles.write(shared.resolve("run.json"), written.getBytes(StandardCharsets.UTF_8));
                        // a write that says it succeeded put its own file at the name, not the neighbour's link (the
                        // neighbour relinks a name each time its own rename makes it anew, so an inode number freed by
                        // a closed file is soon its link's: the write holds its file open until it has checked)
                        assertThat(Files.isRegularFile(shared.resolve("run.json"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                                .as("write %d said it succeeded: run.json is a regular file, not %s", i,
                                        Files.isSymbolicLink(shared.resolve("run.json"))
                                                ? "a link to " + Files.readSymbolicLink(shared.resolve("run.json")) : "?")
                                .isTrue();
                        assertThat(shared.resolve("run.json")).hasContent(written);
                    } catch (IOException e) {
                        // the neighbour's link at the name when PRISM renames or syncs: a failed write, never a redirected one
                        assertThat(e.getMessage()).doesNotContain("secret");
                    }
                    assertThat(i).as("the neighbour never won a race in 100,000 writes").isLessThan(100_000);
                }
            } finally {
                stop.set(true);
                neighbour.join();
            }
        }
        assertThat(neighbourFailed.get()).isNull();
        assertThat(swaps.get()).isGreaterThanOrEqualTo(20);
        assertThat(secret).hasContent("root only");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
    }

    @Test
    void aModeOutOfRange_isRefusedNamingIt(@TempDir Path dir) {
        assertThatThrownBy(() -> AtomicFiles.write(dir.resolve("x"), new byte[0], 01000))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("mode must be in 0..0777 (permission bits), was 01000");
    }

    @Test
    void writeAtomically_setsTheModeGivenWhateverTheUmask(@TempDir Path dir) throws IOException {
        AtomicFiles.write(dir.resolve("private.json"), "{}".getBytes(StandardCharsets.UTF_8), 0600);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("private.json"))))
                .isEqualTo("rw-------");
        try (var entries = Files.list(dir)) {
            assertThat(entries).containsExactly(dir.resolve("private.json"));
        }
    }
}

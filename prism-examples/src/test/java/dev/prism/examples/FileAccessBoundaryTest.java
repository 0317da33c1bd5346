package dev.prism.examples;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where PRISM's main code changes the filesystem by name through {@code java.nio.file.Files} rather than through a
 * directory it holds by descriptor ({@link dev.prism.spi.HeldDirectory}, {@link dev.prism.spi.AtomicFiles}). Each class
 * that still does is listed here with why; a new one fails this test until it goes through the held directory or is
 * listed with its reason, and a listed one that no longer does fails it too, so the list stays true.
 */
class FileAccessBoundaryTest {
    private static final Set<String> CHANGING = Set.of("write", "writeString", "newOutputStream", "newBufferedWriter",
            "createFile", "createDirectory", "createDirectories", "move", "copy", "delete", "deleteIfExists",
            "setPosixFilePermissions", "setAttribute", "setLastModifiedTime", "createSymbolicLink", "createLink",
            "createTempFile", "createTempDirectory");

    /** The classes that still change files by name, and why that is safe or what is left to do. */
    static final Map<String, String> REMAINING = Map.ofEntries(
            Map.entry("dev.prism.WorkloadContext",
                    "fixture(): makes a fixture directory below the rank's own directory, which the run made 0700 (item 2 moves the rank's work onto its held descriptor)"),
            Map.entry("dev.prism.cli.ClassArchiveTraining",
                    "the build's class-data archive training, run by the build on its own target directory, never by a user's run"),
            Map.entry("dev.prism.cli.ScenarioExecution",
                    "a fallback results directory when --out fails: createTempDirectory makes it 0700 under java.io.tmpdir (sticky /tmp), and its documents go through AtomicFiles"),
            Map.entry("dev.prism.cli.SuiteCommand",
                    "the suite's own temporary target when none is given: createTempDirectory, 0700, under java.io.tmpdir"),
            Map.entry("dev.prism.cli.Supervisor",
                    "the supervisor's scratch directory: createTempDirectory, 0700, under java.io.tmpdir"),
            Map.entry("dev.prism.internal.coordination.CoordinatorEndpoint",
                    "removes the SLURM step's address file by name: unlink removes a link itself and never follows it; the file is written through AtomicFiles"),
            Map.entry("dev.prism.internal.coordination.PrivateDirectory",
                    "makes the parents of the --coordinator directory the user named; the meeting directory itself is made, opened and checked through HeldDirectory"),
            Map.entry("dev.prism.internal.coordination.RunSecret",
                    "~/.prism/run-secret in this user's own home, which no other user may write: created 0600 exclusively and linked into place"),
            Map.entry("dev.prism.internal.files.Fixtures",
                    "fixtures below the run directory, made 0700 by this run (item 2: onto the held run directory)"),
            Map.entry("dev.prism.internal.files.RunDirectory",
                    "removes an empty run directory by name (rmdir never follows a link); it is made, marked and emptied through HeldDirectory"),
            Map.entry("dev.prism.internal.launch.ScenarioRunner",
                    "makes --out's directories after SafeChain refused any that others may change; documents in it go through AtomicFiles"),
            Map.entry("dev.prism.internal.output.ResultJson",
                    "makes --out's rank-document directory after SafeChain's check; documents go through AtomicFiles"),
            Map.entry("dev.prism.junit.PrismTargetExtension",
                    "JUnit's temporary target: createTempDirectory, 0700"),
            Map.entry("dev.prism.posix.data.Datasets",
                    "makes a kept dataset's directory the user named; its manifest goes through AtomicFiles and its files are read confined beneath it (DatasetDirectory)"),
            Map.entry("dev.prism.posix.data.internal.CreateDatasetWorkload",
                    "the benchmark's own files below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.data.internal.DatasetIo",
                    "the benchmark's own files below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.data.internal.Md5CheckWorkload",
                    "the benchmark's own files below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.internal.KernelCaches",
                    "writes /proc/sys/vm/drop_caches, a fixed kernel file"),
            Map.entry("dev.prism.posix.internal.NioFileAccess",
                    "access=nio is the benchmark of java.nio.file itself, by name on purpose, below the rank's directory"),
            Map.entry("dev.prism.posix.metadata.internal.PopulatedFilesWorkload",
                    "the benchmark's own directories below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.workflows.internal.GitWorkloads",
                    "the benchmark's source tree below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.workflows.internal.SourceTree",
                    "the benchmark's source tree below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.workflows.internal.ToolWorkloads",
                    "the benchmark's own directories below the rank's directory (item 2)"),
            Map.entry("dev.prism.posix.workflows.internal.Wheels",
                    "the benchmark's wheel files below the rank's directory (item 2)"),
            Map.entry("dev.prism.spi.Directories",
                    "makeOrKeep: a rank's directory below the 0700 run directory; a link in its place is refused"),
            Map.entry("dev.prism.spi.SyscallTrace",
                    "cgroup and tracefs directories: kernel filesystems only root may write"),
            Map.entry("dev.prism.torch.TorchDataset",
                    "its private 0700 working directory for Python (createTempDirectory) and a dataset's directory the user named"));

    private static JavaClasses prism;

    @BeforeAll
    static void importPrism() {
        prism = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.prism");
    }

    @Test
    void onlyTheListedClassesChangeFilesByName() {
        Map<String, Set<String>> found = new TreeMap<>();
        prism.forEach(c -> {
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                if (call.getTargetOwner().isEquivalentTo(java.nio.file.Files.class) && CHANGING.contains(call.getName())) {
                    String top = c.getName().replaceAll("\\$.*", "");
                    found.computeIfAbsent(top, k -> new TreeSet<>()).add(call.getName());
                }
            }
        });
        // the held directory itself, and core's test helpers (its test jar is on this module's class path)
        found.keySet().removeIf(k -> k.equals("dev.prism.spi.HeldDirectory") || k.startsWith("dev.prism.testing."));
        assertThat(found.keySet()).as("classes changing files by name through java.nio.file.Files: %s", found)
                .containsExactlyInAnyOrderElementsOf(REMAINING.keySet());
    }
}

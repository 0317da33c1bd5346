package dev.prism.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Names what the threads of a process that cannot exit are stuck in, from /proc (as root or as its parent): the
 * thread's name, the system call with its path — the path argument read from the thread's memory, a descriptor's path
 * from its fd link — and what the kernel waits on ({@code request_wait_answer}: a FUSE daemon's answer). For example
 * {@code prism-cleanup in unlinkat("/mnt/x/prism-…/file-3") (waiting on its FUSE daemon)}.
 */
final class StuckThreads {
    /** How a file call's arguments give its path: a path, a directory descriptor and a path, or a descriptor. */
    private enum Args { PATH, AT_PATH, FD }

    private record Call(String name, Args args) {
    }

    private static final Map<Integer, Call> X86_64 = Map.ofEntries(
            Map.entry(0, new Call("read", Args.FD)), Map.entry(1, new Call("write", Args.FD)),
            Map.entry(2, new Call("open", Args.PATH)), Map.entry(3, new Call("close", Args.FD)),
            Map.entry(4, new Call("stat", Args.PATH)), Map.entry(5, new Call("fstat", Args.FD)),
            Map.entry(6, new Call("lstat", Args.PATH)), Map.entry(17, new Call("pread64", Args.FD)),
            Map.entry(18, new Call("pwrite64", Args.FD)), Map.entry(21, new Call("access", Args.PATH)),
            Map.entry(73, new Call("flock", Args.FD)), Map.entry(74, new Call("fsync", Args.FD)),
            Map.entry(75, new Call("fdatasync", Args.FD)), Map.entry(77, new Call("ftruncate", Args.FD)),
            Map.entry(78, new Call("getdents", Args.FD)), Map.entry(82, new Call("rename", Args.PATH)),
            Map.entry(83, new Call("mkdir", Args.PATH)), Map.entry(84, new Call("rmdir", Args.PATH)),
            Map.entry(86, new Call("link", Args.PATH)), Map.entry(87, new Call("unlink", Args.PATH)),
            Map.entry(217, new Call("getdents64", Args.FD)), Map.entry(257, new Call("openat", Args.AT_PATH)),
            Map.entry(258, new Call("mkdirat", Args.AT_PATH)), Map.entry(262, new Call("newfstatat", Args.AT_PATH)),
            Map.entry(263, new Call("unlinkat", Args.AT_PATH)), Map.entry(264, new Call("renameat", Args.AT_PATH)),
            Map.entry(265, new Call("linkat", Args.AT_PATH)), Map.entry(285, new Call("fallocate", Args.FD)),
            Map.entry(316, new Call("renameat2", Args.AT_PATH)), Map.entry(332, new Call("statx", Args.AT_PATH)),
            Map.entry(437, new Call("openat2", Args.AT_PATH)));
    /** The generic table arm64 uses. */
    private static final Map<Integer, Call> AARCH64 = Map.ofEntries(
            Map.entry(32, new Call("flock", Args.FD)), Map.entry(34, new Call("mkdirat", Args.AT_PATH)),
            Map.entry(35, new Call("unlinkat", Args.AT_PATH)), Map.entry(37, new Call("linkat", Args.AT_PATH)),
            Map.entry(38, new Call("renameat", Args.AT_PATH)), Map.entry(46, new Call("ftruncate", Args.FD)),
            Map.entry(47, new Call("fallocate", Args.FD)), Map.entry(56, new Call("openat", Args.AT_PATH)),
            Map.entry(57, new Call("close", Args.FD)), Map.entry(61, new Call("getdents64", Args.FD)),
            Map.entry(63, new Call("read", Args.FD)), Map.entry(64, new Call("write", Args.FD)),
            Map.entry(67, new Call("pread64", Args.FD)), Map.entry(68, new Call("pwrite64", Args.FD)),
            Map.entry(79, new Call("newfstatat", Args.AT_PATH)), Map.entry(80, new Call("fstat", Args.FD)),
            Map.entry(82, new Call("fsync", Args.FD)), Map.entry(83, new Call("fdatasync", Args.FD)),
            Map.entry(276, new Call("renameat2", Args.AT_PATH)), Map.entry(291, new Call("statx", Args.AT_PATH)));
    private static final int AT_FDCWD = -100;

    private StuckThreads() {
    }

    /** @return one line for each thread of {@code pid} still alive: its name, its call and what it waits on */
    static List<String> of(long pid) {
        List<String> stuck = new ArrayList<>();
        Path tasks = Path.of("/proc", String.valueOf(pid), "task");
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : list.sorted().toList()) {
                String state = state(task);
                if (state.isEmpty() || state.equals("Z") || state.equals("X")) {
                    continue;
                }
                stuck.add(describe(task));
            }
        } catch (IOException e) {
            // the process went meanwhile
        }
        return stuck;
    }

    private static String describe(Path task) {
        String name = read(task.resolve("comm"));
        String wchan = read(task.resolve("wchan"));
        String call = call(task);
        String waiting = wchan.startsWith("request_wait_answer") || wchan.startsWith("fuse_") ? " (waiting on its FUSE daemon)"
                : wchan.isEmpty() || wchan.equals("0") ? "" : " (waiting in " + wchan + ")";
        return (name.isEmpty() ? "thread " + task.getFileName() : name) + (call.isEmpty() ? "" : " in " + call) + waiting;
    }

    /** @return the system call the thread is in, with its path where one can be told: {@code unlinkat("/x/f")} */
    private static String call(Path task) {
        String[] fields = read(task.resolve("syscall")).split(" ");
        if (fields.length == 0 || !fields[0].matches("\\d+")) {
            return "";
        }
        int number = Integer.parseInt(fields[0]);
        Map<Integer, Call> table = System.getProperty("os.arch").equals("aarch64") ? AARCH64 : X86_64;
        Call call = table.get(number);
        if (call == null) {
            return "system call " + number;
        }
        String path = switch (call.args()) {
            case FD -> fdPath(task, argument(fields, 1));
            case PATH -> memoryString(task, argument(fields, 1));
            case AT_PATH -> atPath(task, argument(fields, 1), memoryString(task, argument(fields, 2)));
        };
        return call.name() + (path == null ? "" : "(\"" + path + "\")");
    }

    private static String atPath(Path task, long dirfd, String relative) {
        if (relative == null || relative.startsWith("/") || (int) dirfd == AT_FDCWD) {
            return relative;
        }
        String directory = fdPath(task, dirfd);
        return directory == null ? relative : directory + "/" + relative;
    }

    private static long argument(String[] fields, int index) {
        return index < fields.length ? Long.parseUnsignedLong(fields[index].replaceFirst("^0x", ""), 16) : -1;
    }

    private static String fdPath(Path task, long fd) {
        try {
            return Files.readSymbolicLink(task.resolve("fd").resolve(String.valueOf(fd))).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** @return the NUL-terminated string at {@code address} in the thread's memory, or null where it cannot be read */
    private static String memoryString(Path task, long address) {
        if (address <= 0) {
            return null;
        }
        try (RandomAccessFile memory = new RandomAccessFile(task.resolve("mem").toFile(), "r")) {
            memory.seek(address);
            byte[] bytes = new byte[4096];
            int n = memory.read(bytes);
            int end = 0;
            while (end < n && bytes[end] != 0) {
                end++;
            }
            return n <= 0 ? null : new String(bytes, 0, end, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    private static String state(Path task) {
        String[] fields = statFields(read(task.resolve("stat")));
        return fields.length == 0 ? "" : fields[0];
    }

    /**
     * @return the fields of a {@code /proc/…/stat} line after the command name (which may hold spaces and parentheses):
     *         the state first (field 3 of proc(5)), or none for a line that is not one
     */
    static String[] statFields(String stat) {
        int close = stat.lastIndexOf(')');
        return close < 0 || close + 2 >= stat.length() ? new String[0] : stat.substring(close + 2).strip().split(" ");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}

"""PRISM's Python-level attribution of file calls (syscalls=python), where the kernel cannot trace.

install() wraps Python's own file functions (open, os.open, os.stat, os.listdir, os.fsync…) in this process before
torch is imported; while a timed block is open (active > 0) each call's duration, bytes and path are kept, and
report() adds them to the rank's document as operations named syscall:<function>. What goes through C++ (torch.save's
writer, DCP's reads into tensors) or Rust (safetensors' mmap) without calling these functions is not seen, nor what a
file object's read() does after open: the kernel trace (syscalls=kernel) sees those.
"""
import builtins
import errno
import io
import os
import time

SLOWEST = 5

# (module, attribute, the operation's name, which argument is the path (or None), whether the result is a byte count)
WRAPPED = (
    (builtins, "open", "open", 0, False),
    (io, "open", "open", 0, False),
    (os, "open", "open", 0, False),
    (os, "stat", "stat", 0, False),
    (os, "lstat", "lstat", 0, False),
    (os, "listdir", "listdir", 0, False),
    (os, "scandir", "scandir", 0, False),
    (os, "rename", "rename", 0, False),
    (os, "replace", "rename", 0, False),
    (os, "remove", "unlink", 0, False),
    (os, "unlink", "unlink", 0, False),
    (os, "mkdir", "mkdir", 0, False),
    (os, "rmdir", "rmdir", 0, False),
    (os, "fsync", "fsync", None, False),
    (os, "fdatasync", "fdatasync", None, False),
    (os, "close", "close", None, False),
    (os, "read", "read", None, True),
    (os, "write", "write", None, True),
    (os, "pread", "pread64", None, True),
    (os, "pwrite", "pwrite64", None, True),
)


class Interposer:
    def __init__(self):
        self.active = 0
        self.calls = []  # (name, nanos, bytes, path)
        self.errors = {}  # (name, errno name) -> count

    def wrap(self, original, name, path_at, counts_bytes):
        interposer = self

        def wrapper(*args, **kwargs):
            if interposer.active <= 0:
                return original(*args, **kwargs)
            start = time.perf_counter_ns()
            try:
                result = original(*args, **kwargs)
            except OSError as e:
                key = (name, errno.errorcode.get(e.errno, "EIO") if e.errno else "EIO")
                interposer.errors[key] = interposer.errors.get(key, 0) + 1
                raise
            nanos = time.perf_counter_ns() - start
            path = ""
            if path_at is not None and len(args) > path_at:
                try:
                    path = os.fsdecode(args[path_at]) if not isinstance(args[path_at], int) else ""
                except TypeError:
                    path = ""
            moved = result if counts_bytes and isinstance(result, int) else (
                len(result) if counts_bytes and isinstance(result, (bytes, bytearray)) else 0)
            interposer.calls.append((name, nanos, moved, path))
            return result
        wrapper.__wrapped__ = original
        wrapper.__name__ = getattr(original, "__name__", name)
        return wrapper

    def take(self):
        """The calls seen since the last take, handed over: a DataLoader worker passes its own to the rank with the
        samples it delivers (the worker's memory ends with it)."""
        calls, self.calls = self.calls, []
        return calls

    def report(self, phases, byte_counts, counters, notes):
        """Adds the calls seen in timed blocks to the rank's document."""
        for name, nanos, moved, _ in self.calls:
            phases.setdefault("syscall:" + name, []).append(max(1, nanos))
            if moved:
                byte_counts["syscall:" + name] = byte_counts.get("syscall:" + name, 0) + moved
        for (name, code), count in self.errors.items():
            counters[f"errors:syscall:{name}:{code}"] = counters.get(f"errors:syscall:{name}:{code}", 0) + count
        notes["syscalls"] = ("python (interposition): open and os.* as this rank's Python called them in its timed phase,"
                             f" {len(self.calls)} calls; not seen: calls from C++ or Rust (torch.save's writer, DCP's"
                             " and safetensors' reads), a file object's reads; a DataLoader worker's calls come with its samples")
        slowest = sorted(self.calls, key=lambda c: c[1], reverse=True)[:SLOWEST]
        if slowest:
            notes["syscalls_slowest"] = "; ".join(f"{n} {ns / 1e6:.3f} ms" + (f" {p}" if p else "")
                                                  for n, ns, _, p in slowest)


def install():
    interposer = Interposer()
    for module, attribute, name, path_at, counts_bytes in WRAPPED:
        original = getattr(module, attribute, None)
        if original is not None:
            setattr(module, attribute, interposer.wrap(original, name, path_at, counts_bytes))
    return interposer

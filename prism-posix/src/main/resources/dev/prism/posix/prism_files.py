"""PRISM's file benchmarks through Python's interfaces (access=python: open and os.*; access=fsspec: fsspec's local
filesystem), one worker per rank. PRISM's Java rank starts it in setup and sends one request per line on stdin; the
worker answers one line on stdout: every call's duration in nanoseconds (time.perf_counter_ns around that call alone)
by operation, the bytes moved, and what the request found (entries listed, digests). The imports and the rehearsal
happen before any timed request; a failed call ends the request with its call, path and errno.
"""
import errno
import hashlib
import json
import os
import sys
import time

ACCESS = sys.argv[1]
# The run directory as the rank names it; the worker's working directory is that directory, opened by the rank and held
# (the rank starts the worker through /proc/<pid>/fd/N): a path beneath it is reached from here, relative, never again
# by its name, which another user who may write above the run directory could have swapped for a link.
BASE = sys.argv[2] if len(sys.argv) > 2 else ""
if ACCESS == "fsspec":
    import fsspec
    FS = fsspec.filesystem("file")


class Failed(Exception):
    pass


class Calls:
    def __init__(self):
        self.samples, self.bytes = {}, {}

    def time(self, op, path, call, *args):
        start = time.perf_counter_ns()
        try:
            result = call(*args)
        except OSError as e:
            code = errno.errorcode.get(e.errno, "EIO") if e.errno else "EIO"
            raise Failed(f"{op} {path}: {e.strerror or e} ({code})")
        self.samples.setdefault(op, []).append(max(1, time.perf_counter_ns() - start))
        return result

    def add_bytes(self, op, n):
        self.bytes[op] = self.bytes.get(op, 0) + n


def here(path):
    """path as this worker reaches it: relative to its working directory when beneath the run directory."""
    if BASE and path.startswith(BASE + "/"):
        return path[len(BASE) + 1:]
    return path


def opener(path, mode):
    if ACCESS == "fsspec":
        return FS.open(here(path), mode)
    return open(here(path), mode, buffering=0)


def write_file(calls, path, block, size, sync):
    f = calls.time("open", path, opener, path, "wb")
    try:
        def fill():
            left = size
            while left > 0:
                left -= f.write(block if left >= len(block) else block[:left])
            if ACCESS == "fsspec":
                # fsspec's file buffers: without the flush, write timed a copy into its buffer and the bytes reached
                # the filesystem in close; with it they reach the kernel within write, as through the other interfaces
                f.flush()
        calls.time("write", path, fill)
        calls.add_bytes("write", size)
        if sync:
            def durable():
                f.flush()
                os.fsync(f.fileno())
            calls.time("fsync", path, durable)
    finally:
        calls.time("close", path, f.close)


def drop(path):
    fd = os.open(here(path), os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def create(calls, r):
    block = b"\0" * r["block"]
    for path in r["paths"]:
        calls.time("create", path, write_file, calls, path, block, r["size"], r["fsync"])
        if r["drop"]:
            calls.time("drop_cache", path, drop, path)
    return {}


def list_files(calls, r):
    d = r["dir"]
    if ACCESS == "fsspec":
        names = calls.time("readdir", d, FS.ls, here(d), False)
        sized = lambda p: FS.info(p)["size"]
    else:
        names = [os.path.join(d, n) for n in calls.time("readdir", d, os.listdir, here(d))]
        sized = lambda p: os.stat(here(p)).st_size
    total = 0
    for path in names:
        total += calls.time("stat", path, sized, path)
    return {"listed": len(names), "statted": total}


def move(calls, r):
    rename = FS.mv if ACCESS == "fsspec" else os.rename
    for source, destination in r["pairs"]:
        calls.time("rename", source, rename, here(source), here(destination))
    return {}


def delete(calls, r):
    unlink = FS.rm_file if ACCESS == "fsspec" else os.unlink
    for path in r["paths"]:
        calls.time("unlink", path, unlink, here(path))
    return {}


def read_file(calls, path, size, chunk, md5):
    f = calls.time("open", path, opener, path, "rb")
    total = 0
    try:
        while total < size:
            data = calls.time("read", path, f.read, chunk)
            if not data:
                return total
            calls.add_bytes("read", len(data))
            total += len(data)
            if md5 is not None:
                md5.update(data)
        return -1 if f.read(chunk) else total
    finally:
        calls.time("close", path, f.close)


def md5_files(calls, r):
    digests, read = [], []
    for path, size in r["files"]:
        md5 = hashlib.md5() if r.get("hash", True) else None
        n = calls.time("file", path, read_file, calls, path, size, r["chunk"], md5)
        calls.add_bytes("file", max(n, 0))
        digests.append(md5.hexdigest() if md5 is not None else "")
        read.append(n)
    return {"digests": digests, "read": read}


REQUESTS = {"create": create, "list": list_files, "move": move, "delete": delete, "md5": md5_files}


def main():
    print(json.dumps({"ready": ACCESS, "python": sys.version.split()[0],
                      "fsspec": fsspec.__version__ if ACCESS == "fsspec" else None}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        calls = Calls()
        answer = {}
        try:
            answer["result"] = REQUESTS[request["op"]](calls, request)
        except Failed as e:
            answer["error"] = str(e)
        answer["samples"], answer["bytes"] = calls.samples, calls.bytes
        print(json.dumps(answer), flush=True)


main()

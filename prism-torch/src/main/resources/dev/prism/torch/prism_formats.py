"""Datasets in the formats training jobs read, written from a seed and read back as a training job reads them.

Every sample's bytes come from the dataset's seed and the sample's index: a 16-byte header (b"PRSM", the sample's
size, its index) and a body drawn from numpy's PCG64 seeded with (seed, index). So any sample can be checked against
what it must be; while loading, each one delivered is checked against the size and CRC-32 recorded at creation
(samples.crc32, cheap enough to do for every sample) and its header (a sample delivered for another is caught).

Formats (prism-dataset.json names the dataset's):
  parquet       shards of row groups (columns index, data; no compression: the bodies are random), read by row group
  arrow         a Hugging Face `datasets` dataset saved with save_to_disk, memory-mapped by load_from_disk
  tar_shards    WebDataset-style tar files (<index>.bin members), each streamed in order through a shuffle buffer
  indexed       Megatron-style pairs: data-NNNNN.bin (the samples back to back) and .idx (MMIDIDX: sizes, offsets)
  image_folder  one file per sample in class directories, as torchvision's ImageFolder lays them out
  safetensors   shards of one uint8 tensor per sample (sample-<index>), read by name through mmap or by pread

Run as a script it creates a dataset: python prism_formats.py create DIR --format parquet --samples N ...
"""
import argparse
import bisect
import errno
import json
import os
import random
import stat
import struct
import tarfile
import time
import zlib

import numpy as np

SCHEMA = "prism.formatdataset/1"
MANIFEST = "prism-dataset.json"
CHECKS = "samples.crc32"  # per sample, little-endian uint32 size and uint32 CRC-32
HEADER = struct.Struct("<4sIQ")
MAGIC = b"PRSM"
FORMATS = ("parquet", "arrow", "tar_shards", "indexed", "image_folder", "safetensors")
MANIFEST_LIMIT = 256 << 20  # a manifest is read whole: a larger one is not one PRISM wrote
MMIDIDX = b"MMIDIDX\x00\x00"  # Megatron's index header; version 1, dtype code 1 (uint8)


class DatasetError(Exception):
    """A dataset that is not what its manifest says: a changed byte, a missing sample, a foreign file."""


# ---- the samples: sizes and bytes from (seed, index) ----

def sample_size(seed, index, size, jitter):
    """size, or a size drawn uniformly within ± jitter × size from (seed, index); never under the header's 16 bytes"""
    if jitter <= 0:
        return max(HEADER.size, size)
    r = random.Random(seed * 1_000_003 + index).random()
    return max(HEADER.size, int(round(size * (1 + jitter * (2 * r - 1)))))


def sample_bytes(seed, index, size):
    return HEADER.pack(MAGIC, size, index) + np.random.default_rng([seed, index]).bytes(size - HEADER.size)


class Checks:
    """The sizes and CRC-32s recorded at creation, by sample index."""

    def __init__(self, root, samples):
        path = os.path.join(root, CHECKS)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            st = os.fstat(fd)
            if st.st_size != samples * 8:
                raise DatasetError(f"{path}: {st.st_size} bytes, the manifest's {samples} samples need {samples * 8}")
            raw = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
        finally:
            os.close(fd)
        table = np.frombuffer(raw, dtype="<u4").reshape(-1, 2)
        self.sizes, self.crcs = table[:, 0].copy(), table[:, 1].copy()

    def problem(self, index, data):
        """None when `data` is sample `index`, else what differs"""
        if len(data) != self.sizes[index]:
            return f"sample {index}: {len(data)} bytes, the dataset says {self.sizes[index]}"
        magic, size, at = HEADER.unpack_from(data)
        if magic != MAGIC or at != index or size != len(data):
            return f"sample {index}: its header names sample {at} of {size} bytes"
        crc = zlib.crc32(data)
        if crc != self.crcs[index]:
            return f"sample {index}: CRC-32 {crc:08x}, its seed's content has {int(self.crcs[index]):08x} (a changed byte)"
        return None


# ---- creation ----

def shards_of(seed, samples, size, jitter, shard_size):
    """[(first index, [sizes])] of consecutive samples whose bytes fill at most shard_size (at least one each)"""
    shards, current, filled, first = [], [], 0, 0
    for i in range(samples):
        s = sample_size(seed, i, size, jitter)
        if current and filled + s > shard_size:
            shards.append((first, current))
            current, filled, first = [], 0, i
        current.append(s)
        filled += s
    if current:
        shards.append((first, current))
    return shards


def exclusive(path):
    """a new file, never a link followed: O_CREAT | O_EXCL fails on anything already there"""
    return open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644), "wb")


def create(root, fmt, samples, size, jitter=0.0, shard_size=64 << 20, row_group=1 << 20, classes=100, seed=42):
    """Writes the dataset into `root` (an existing, empty directory), its samples.crc32, then its manifest last: a
    directory with a manifest is a whole dataset. Returns the manifest."""
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt}: one of {', '.join(FORMATS)}")
    if os.listdir(root):
        raise DatasetError(f"{root} is not empty")
    checks = np.zeros((samples, 2), dtype="<u4")
    shards = shards_of(seed, samples, size, jitter, shard_size)

    def samples_of(first, sizes):
        for k, s in enumerate(sizes):
            data = sample_bytes(seed, first + k, s)
            checks[first + k] = (s, zlib.crc32(data))
            yield first + k, data

    files, layout = WRITERS[fmt](root, shards, samples_of, row_group=row_group, classes=classes,
                                 shard_size=shard_size)
    with exclusive(os.path.join(root, CHECKS)) as f:
        f.write(checks.tobytes())
    for entry in files:  # durable before the manifest says the dataset is whole (and a later drop can evict it)
        fd = open_regular(os.path.join(root, entry["path"]))
        try:
            os.fdatasync(fd)
        finally:
            os.close(fd)
    # an image folder's files follow from the indices (image_path): listing them would grow the manifest with the
    # samples, so it lists the shards' files only
    manifest = {"schema": SCHEMA, "format": fmt, "seed": seed, "samples": samples, "sampleSize": size,
                "sizeJitter": jitter, "shardSize": shard_size, "rowGroup": row_group, "classes": classes,
                "bytes": int(checks[:, 0].sum(dtype=np.int64)), "fileCount": len(files),
                "fileBytes": sum(f["bytes"] for f in files), "files": [] if fmt == "image_folder" else files,
                "layout": layout}
    with exclusive(os.path.join(root, MANIFEST + ".tmp")) as f:
        f.write(json.dumps(manifest).encode())
        f.flush()
        os.fsync(f.fileno())
    os.rename(os.path.join(root, MANIFEST + ".tmp"), os.path.join(root, MANIFEST))
    return manifest


def file_entry(root, rel):
    return {"path": rel, "bytes": os.lstat(os.path.join(root, rel)).st_size}


def write_parquet(root, shards, samples_of, row_group, **_):
    import pyarrow as pa
    import pyarrow.parquet as pq
    schema = pa.schema([("index", pa.int64()), ("data", pa.binary())])
    files, layout = [], []
    for n, (first, sizes) in enumerate(shards):
        rel = f"shard-{n:05d}.parquet"
        groups = []
        with exclusive(os.path.join(root, rel)) as f, pq.ParquetWriter(f, schema, compression="none",
                                                                       use_dictionary=False, write_statistics=False) as w:
            rows, filled = [], 0
            for index, data in samples_of(first, sizes):
                rows.append((index, data))
                filled += len(data)
                if filled >= row_group:
                    w.write_table(pa.table({"index": [r[0] for r in rows], "data": [r[1] for r in rows]}, schema=schema),
                                  row_group_size=len(rows))
                    groups.append(len(rows))
                    rows, filled = [], 0
            if rows:
                w.write_table(pa.table({"index": [r[0] for r in rows], "data": [r[1] for r in rows]}, schema=schema),
                              row_group_size=len(rows))
                groups.append(len(rows))
        files.append(file_entry(root, rel))
        layout.append({"path": rel, "first": first, "count": len(sizes), "rowGroups": groups})
    return files, layout


def write_arrow(root, shards, samples_of, shard_size, **_):
    import datasets
    features = datasets.Features({"index": datasets.Value("int64"), "data": datasets.Value("binary")})

    staging = os.path.join(root, ".staging")
    os.mkdir(staging)
    try:
        # written with datasets' own ArrowWriter, then saved as save_to_disk shards it: what load_from_disk maps
        from datasets.arrow_writer import ArrowWriter
        writer = ArrowWriter(features=features, path=os.path.join(staging, "samples.arrow"))
        for first, sizes in shards:
            for index, data in samples_of(first, sizes):
                writer.write({"index": index, "data": data})
        writer.finalize()
        writer.close()
        datasets.disable_progress_bars()
        ds = datasets.Dataset.from_file(os.path.join(staging, "samples.arrow"))
        # made here, exclusively: save_to_disk takes a directory that is there already, a link to one included, and
        # another user who may add names to root (a sticky project directory) could have put one in its place
        os.mkdir(os.path.join(root, "arrow"))
        ds.save_to_disk(os.path.join(root, "arrow"), max_shard_size=shard_size)
        del ds
    finally:
        remove_tree(staging)
    files = sorted(os.path.join("arrow", name) for name in os.listdir(os.path.join(root, "arrow")))
    return [file_entry(root, rel) for rel in files], [{"path": "arrow", "first": 0,
                                                       "count": sum(len(s) for _, s in shards)}]


def remove_tree(path):
    """removes what the run made under path, never following a link"""
    for d, dirs, names in os.walk(path, topdown=False):
        for name in names:
            os.unlink(os.path.join(d, name))
        for name in dirs:
            full = os.path.join(d, name)
            if os.path.islink(full):
                os.unlink(full)
            else:
                os.rmdir(full)
    os.rmdir(path)


def write_tar(root, shards, samples_of, **_):
    import io
    files, layout = [], []
    for n, (first, sizes) in enumerate(shards):
        rel = f"shard-{n:05d}.tar"
        with exclusive(os.path.join(root, rel)) as f, tarfile.open(fileobj=f, mode="w", format=tarfile.USTAR_FORMAT) as t:
            for index, data in samples_of(first, sizes):
                info = tarfile.TarInfo(f"{index:09d}.bin")
                info.size, info.mtime, info.mode = len(data), 0, 0o644
                t.addfile(info, io.BytesIO(data))
        files.append(file_entry(root, rel))
        layout.append({"path": rel, "first": first, "count": len(sizes)})
    return files, layout


def write_indexed(root, shards, samples_of, **_):
    files, layout = [], []
    for n, (first, sizes) in enumerate(shards):
        stem = f"data-{n:05d}"
        with exclusive(os.path.join(root, stem + ".bin")) as f:
            for _, data in samples_of(first, sizes):
                f.write(data)
        counts = np.array(sizes, dtype=np.int32)
        pointers = np.zeros(len(sizes), dtype=np.int64)
        pointers[1:] = np.cumsum(counts[:-1], dtype=np.int64)
        with exclusive(os.path.join(root, stem + ".idx")) as f:
            f.write(MMIDIDX + struct.pack("<Q", 1) + struct.pack("<B", 1) + struct.pack("<Q", len(sizes))
                    + struct.pack("<Q", len(sizes) + 1))
            f.write(counts.tobytes() + pointers.tobytes() + np.arange(len(sizes) + 1, dtype=np.int64).tobytes())
        files += [file_entry(root, stem + ".bin"), file_entry(root, stem + ".idx")]
        layout.append({"path": stem, "first": first, "count": len(sizes)})
    return files, layout


def image_path(index, classes):
    return f"class-{index % classes:04d}/sample-{index:09d}.bin"


def write_image_folder(root, shards, samples_of, classes, **_):
    files = []
    for c in range(min(classes, sum(len(s) for _, s in shards))):
        os.mkdir(os.path.join(root, f"class-{c:04d}"))
    for first, sizes in shards:
        for index, data in samples_of(first, sizes):
            rel = image_path(index, classes)
            with exclusive(os.path.join(root, rel)) as f:
                f.write(data)
            files.append({"path": rel, "bytes": len(data)})
    return files, []


def write_safetensors(root, shards, samples_of, **_):
    from safetensors.numpy import save
    files, layout = [], []
    for n, (first, sizes) in enumerate(shards):
        rel = f"shard-{n:05d}.safetensors"
        tensors = {f"sample-{index:09d}": np.frombuffer(data, dtype=np.uint8) for index, data in samples_of(first, sizes)}
        with exclusive(os.path.join(root, rel)) as f:
            f.write(save(tensors))
        files.append(file_entry(root, rel))
        layout.append({"path": rel, "first": first, "count": len(sizes)})
    return files, layout


WRITERS = {"parquet": write_parquet, "arrow": write_arrow, "tar_shards": write_tar, "indexed": write_indexed,
           "image_folder": write_image_folder, "safetensors": write_safetensors}


# ---- a dataset's files, reached only beneath its directory ----

def inside(rel):
    """None when `rel` is a plain relative path: components joined by '/', none empty, '.', '..' or holding a NUL;
    else why not"""
    if not isinstance(rel, str) or not rel:
        return "is not a path"
    if rel.startswith("/"):
        return "is absolute"
    for part in rel.split("/"):
        if part in ("", ".", "..") or "\0" in part:
            return f"has the component {json.dumps(part)}"
    return None


class Beneath:
    """A dataset's directory held open, and its files opened only beneath it: a name must be plain (inside), each
    directory on its way is opened relative to the one above it and the file relative to its directory, all with
    O_NOFOLLOW (os.open(name, flags, dir_fd=...)), so neither a manifest's name nor a link in the dataset leads out.
    Directories stay open per process (a forked DataLoader worker opens its own)."""
    HELD = 256

    def __init__(self, root):
        self.root, self.pid, self.dirs = root, None, {}

    def refused(self, rel, why):
        return DatasetError(f"{self.root}: entry {json.dumps(rel)} {why}: refused, nothing read (a manifest's paths are"
                            f" relative to the dataset's directory and stay inside it)")

    def directory(self, rel, entry):
        """the descriptor of the directory `rel` ("" the dataset's own), found on the way to `entry`"""
        if self.pid != os.getpid():
            self.close()
            self.pid, self.dirs = os.getpid(), {"": os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)}
        fd = self.dirs.get(rel)
        if fd is None:
            parent, _, name = rel.rpartition("/")
            above = self.directory(parent, entry)
            try:
                fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=above)
            except OSError as e:
                if e.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise self.refused(entry, f"leads through {json.dumps(rel)}, a link or not a directory") from None
                raise
            if len(self.dirs) > self.HELD:
                for held in [r for r in self.dirs if r and r != parent]:
                    os.close(self.dirs.pop(held))
            self.dirs[rel] = fd
        return fd

    def place(self, rel):
        """(directory descriptor, name) of the file `rel`: what to open once the clock runs"""
        why = inside(rel)
        if why:
            raise self.refused(rel, why)
        directory, _, name = rel.rpartition("/")
        return self.directory(directory, rel), name

    def open(self, rel):
        """a read-only descriptor of the regular file `rel`, opened beneath the dataset without following a link"""
        dir_fd, name = self.place(rel)
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise self.refused(rel, "is a symbolic link") from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise self.refused(rel, "is not a regular file")
        return fd

    def require_regular(self, rel):
        """the size of the regular file `rel`, stat'ed beneath the dataset without following a link"""
        dir_fd, name = self.place(rel)
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            raise self.refused(rel, "is a symbolic link" if stat.S_ISLNK(st.st_mode) else "is not a regular file")
        return st.st_size

    def close(self):
        if self.pid == os.getpid():
            for fd in self.dirs.values():
                os.close(fd)
        self.dirs = {}


# ---- reading a kept dataset's manifest ----

MANIFEST_KEYS = {"schema", "format", "seed", "samples", "sampleSize", "sizeJitter", "shardSize", "rowGroup", "classes",
                 "bytes", "fileCount", "fileBytes", "files", "layout"}
ENTRY_KEYS = {"files": {"path", "bytes"}, "layout": {"path", "first", "count", "rowGroups"}}


def read_manifest(root):
    path = os.path.join(root, MANIFEST)
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MANIFEST_LIMIT:
            raise DatasetError(f"{path}: not a regular file of at most {MANIFEST_LIMIT} bytes")
        raw = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
    finally:
        os.close(fd)
    manifest = json.loads(raw)
    if manifest.get("schema") != SCHEMA or manifest.get("format") not in FORMATS:
        raise DatasetError(f"{path}: not a {SCHEMA} manifest of one of {', '.join(FORMATS)}")
    unknown = sorted(set(manifest) - MANIFEST_KEYS)
    if unknown:
        raise DatasetError(f"{path}: unknown key {json.dumps(unknown[0])}")
    for key, known in ENTRY_KEYS.items():
        for entry in manifest.get(key, []):
            unknown = sorted(set(entry) - known) if isinstance(entry, dict) else ["(not an object)"]
            why = f"has the unknown key {json.dumps(unknown[0])}" if unknown else inside(entry.get("path"))
            if why:
                raise DatasetError(f"{path}: {key} entry {json.dumps(entry.get('path') if isinstance(entry, dict) else entry)}"
                                   f" {why}: refused, nothing read (a manifest's paths are relative to the dataset's"
                                   f" directory and stay inside it)")
    return manifest


def data_files(root, manifest):
    """every file holding the dataset's samples (its manifest and checksums not counted)"""
    if manifest["format"] == "image_folder":
        return [os.path.join(root, image_path(i, manifest["classes"])) for i in range(manifest["samples"])]
    return [os.path.join(root, f["path"]) for f in manifest["files"]]


# ---- loading, as training reads each format ----

def units_of(manifest):
    """What a rank's share is made of: row groups (parquet) or whole shards (tar_shards), as (shard number, row group
    or -1, first sample, samples); or, for the formats read at random, the sample indices themselves (a numpy array:
    8 bytes a sample, so 100 million samples fit where as many tuples would not)"""
    fmt = manifest["format"]
    if fmt == "parquet":
        units = []
        for n, shard in enumerate(manifest["layout"]):
            first = shard["first"]
            for g, count in enumerate(shard["rowGroups"]):
                units.append((n, g, first, count))
                first += count
        return units
    if fmt == "tar_shards":
        return [(n, -1, s["first"], s["count"]) for n, s in enumerate(manifest["layout"])]
    return np.arange(manifest["samples"], dtype=np.int64)


def share_of(units, rank, world, epoch, shuffle, seed=1234):
    """this rank's units of the epoch: every unit once over all ranks (none padded or repeated), in a new random order
    each epoch with shuffle (the same on every rank: the seed and the epoch), dealt round-robin"""
    if isinstance(units, np.ndarray):
        order = np.random.default_rng([seed, epoch]).permutation(units) if shuffle else units
        return order[rank::world]
    order = list(range(len(units)))
    if shuffle:
        random.Random(seed * 7919 + epoch).shuffle(order)
    return [units[i] for i in order[rank::world]]


def samples_in(units):
    """how many samples `units` hand out"""
    return len(units) if isinstance(units, np.ndarray) else sum(u[3] for u in units)


class Reader:
    """One worker's open files of a dataset; samples(unit) yields (index, bytes, path) as the format is read.
    `opened` holds what the rank opened before the clock (opened_in_rank): the worker uses it, never closes it."""

    def __init__(self, root, manifest, mmap_reads, shuffle, seed, opened=None):
        self.root, self.manifest, self.mmap_reads, self.shuffle = root, manifest, mmap_reads, shuffle
        self.rng = random.Random(seed)
        self.layout = manifest["layout"]
        self.firsts = [s["first"] for s in self.layout]
        self.opened = opened or {}
        self.open_files = {}
        self.beneath = Beneath(root)

    def path(self, rel):
        return os.path.join(self.root, rel)

    def shard_of(self, index):
        return bisect.bisect_right(self.firsts, index) - 1

    def close(self):
        for handle in self.open_files.values():
            close = getattr(handle, "close", None)
            if close:
                close()
            elif isinstance(handle, int):
                os.close(handle)
        self.open_files.clear()
        self.beneath.close()


def open_regular(path):
    """a dataset file opened without following a link, and only when it is a regular file"""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DatasetError(f"{path}: not a regular file")
    return fd


class ParquetReader(Reader):
    def samples(self, unit):
        import pyarrow.parquet as pq
        n, group, _, _ = unit
        path = self.path(self.layout[n]["path"])
        handle = self.open_files.get(n)
        if handle is None:  # its footer is read here, by the worker that first needs the file, as streaming loaders do
            handle = self.open_files[n] = _ParquetHandle(open(self.beneath.open(self.layout[n]["path"]), "rb", buffering=0))
        table = handle.file.read_row_group(group, columns=["index", "data"])
        indices = table.column("index").to_pylist()  # to_numpy's first call imports pandas' glue: 0.4 s in a worker
        data = table.column("data").combine_chunks()
        order = list(range(len(indices)))
        if self.shuffle:
            self.rng.shuffle(order)
        for k in order:
            yield int(indices[k]), data[k].as_py(), path


class _ParquetHandle:
    def __init__(self, raw):
        import pyarrow.parquet as pq
        self.raw, self.file = raw, pq.ParquetFile(raw, memory_map=False)

    def close(self):
        self.file.close()
        self.raw.close()


class ArrowReader(Reader):
    def samples(self, unit):
        ds = self.opened.get("ds")
        if ds is None:
            ds = self.opened["ds"] = open_arrow(self.root)
        row = ds[int(unit)]
        yield int(row["index"]), row["data"], self.path("arrow")


class TarReader(Reader):
    def samples(self, unit):
        path = self.path(self.layout[unit[0]]["path"])
        with open(self.beneath.open(self.layout[unit[0]]["path"]), "rb") as f, tarfile.open(fileobj=f, mode="r|") as stream:
            for member in stream:
                if not member.isfile() or not member.name.endswith(".bin"):
                    raise DatasetError(f"{path}: member {member.name} is not a sample")
                yield int(member.name[:-4]), stream.extractfile(member).read(), path


def open_arrow(root):
    import datasets
    beneath = Beneath(root)
    beneath.directory("arrow", "arrow")  # a directory beneath the dataset, not a link (datasets opens it by name)
    beneath.close()
    return datasets.load_from_disk(os.path.join(root, "arrow"))


def map_indexed(beneath, rel):
    """one .bin/.idx pair beneath the dataset: the index read (its MMIDIDX header, sizes and offsets), the .bin mapped"""
    stem = os.path.join(beneath.root, rel)
    fd = beneath.open(rel + ".idx")
    with open(fd, "rb") as f:
        head = f.read(len(MMIDIDX) + 25)
        if not head.startswith(MMIDIDX):
            raise DatasetError(f"{stem}.idx: not an MMIDIDX index")
        count = struct.unpack_from("<Q", head, len(MMIDIDX) + 9)[0]
        sizes = np.frombuffer(f.read(4 * count), dtype=np.int32)
        pointers = np.frombuffer(f.read(8 * count), dtype=np.int64)
    import mmap
    fd = beneath.open(rel + ".bin")
    try:
        mapped = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    return _Mapped(mapped, sizes, pointers, stem + ".bin")


def opened_in_rank(root, manifest):
    """What a training job opens once, in the rank, before its DataLoader starts — Hugging Face's dataset object
    (load_from_disk maps its Arrow files) and Megatron's indexed dataset (every index read, every .bin mapped) — and
    its workers inherit; the other formats' files are opened by the worker that first reads them"""
    if manifest["format"] == "arrow":
        return {"ds": open_arrow(root)}
    if manifest["format"] == "indexed":
        beneath = Beneath(root)
        return {n: map_indexed(beneath, s["path"]) for n, s in enumerate(manifest["layout"])}
    return {}


class IndexedReader(Reader):
    def samples(self, unit):
        index = int(unit)
        n = self.shard_of(index)
        m = self.opened.get(n)
        if m is None:
            m = self.opened[n] = self.open_files[n] = map_indexed(self.beneath, self.layout[n]["path"])
        k = index - self.firsts[n]
        at = int(m.pointers[k])
        yield index, m.mapped[at:at + int(m.sizes[k])], m.path  # the slice copies: its pages are faulted in here


class _Mapped:
    def __init__(self, mapped, sizes, pointers, path):
        self.mapped, self.sizes, self.pointers, self.path = mapped, sizes, pointers, path

    def close(self):
        self.mapped.close()


class ImageFolderReader(Reader):
    def samples(self, unit):
        index = int(unit)
        rel = image_path(index, self.manifest["classes"])
        path = self.path(rel)
        fd = self.beneath.open(rel)
        try:
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(fd)
        yield index, b"".join(chunks), path


class SafetensorsReader(Reader):
    def samples(self, unit):
        index = int(unit)
        n = self.shard_of(index)
        path = self.path(self.layout[n]["path"])
        name = f"sample-{index:09d}"
        if self.mmap_reads:
            handle = self.open_files.get(n)
            if handle is None:
                from safetensors import safe_open
                os.close(self.beneath.open(self.layout[n]["path"]))  # refuses a link or a non-file before safetensors opens it
                handle = self.open_files[n] = safe_open(path, framework="np")
            yield index, handle.get_tensor(name).tobytes(), path
            return
        entry = self.open_files.get(n)
        if entry is None:
            fd = self.beneath.open(self.layout[n]["path"])
            length = struct.unpack("<Q", os.pread(fd, 8, 0))[0]
            if length > MANIFEST_LIMIT:
                raise DatasetError(f"{path}: a header of {length} bytes")
            header = json.loads(os.pread(fd, length, 8))
            entry = self.open_files[n] = _Header(fd, header, 8 + length)
        begin, end = entry.header[name]["data_offsets"]
        yield index, os.pread(entry.fd, end - begin, entry.start + begin), path


class _Header:
    def __init__(self, fd, header, start):
        self.fd, self.header, self.start = fd, header, start

    def close(self):
        os.close(self.fd)


READERS = {"parquet": ParquetReader, "arrow": ArrowReader, "tar_shards": TarReader, "indexed": IndexedReader,
           "image_folder": ImageFolderReader, "safetensors": SafetensorsReader}


def shuffled(stream, size, rng):
    """WebDataset's shuffle: a buffer of `size` samples, each slot handed out at random as a new one arrives"""
    buffer = []
    for item in stream:
        if len(buffer) < size:
            buffer.append(item)
            continue
        k = rng.randrange(len(buffer))
        buffer[k], item = item, buffer[k]
        yield item
    rng.shuffle(buffer)
    yield from buffer


def sample_stream(root, manifest, units, checks, mmap_reads, shuffle, shuffle_buffer, seed, interposer, opened=None):
    """Yields (index, bytes, read nanoseconds, failure, calls) for `units` in order: read nanoseconds is the time the
    reader took to hand this sample over (the row group or member read it waited for included), the check against
    its size, header and CRC-32 done after the clock; failure is None or what went wrong (a changed byte, an errno),
    as (kind, message) with kind corrupt or error, so a worker hands it to the rank instead of dying with it; calls are
    what syscalls=python saw in this worker; opened is what the rank opened before the clock (opened_in_rank)"""
    reader = READERS[manifest["format"]](root, manifest, mmap_reads, shuffle, seed, opened)

    def timed():
        for unit in units:
            it = reader.samples(unit)
            while True:
                start = time.perf_counter_ns()
                try:
                    index, data, path = next(it)
                except StopIteration:
                    break
                yield index, data, path, time.perf_counter_ns() - start

    try:
        items = timed()
        if manifest["format"] == "tar_shards" and shuffle and shuffle_buffer > 1:
            items = shuffled(items, shuffle_buffer, random.Random(seed))
        for index, data, path, nanos in items:
            problem = checks.problem(index, data) if 0 <= index < len(checks.sizes) else f"sample {index}: not in the dataset"
            calls = interposer.take() if interposer is not None else None
            yield index, data, nanos, (("corrupt", f"{path}: {problem}") if problem else None), calls
            if problem:
                return
    except OSError as e:
        name = errno.errorcode.get(e.errno, "EIO") if e.errno else "EIO"
        yield -1, b"", 0, ("error", f"read of {e.filename or root} failed: {e.strerror or e} ({name})"), None
    except DatasetError as e:
        yield -1, b"", 0, ("corrupt", str(e)), None
    except Exception as e:  # a format library's own complaint (a damaged footer or header): the data's fault
        yield -1, b"", 0, ("corrupt", f"{root}: {type(e).__name__}: {e}"), None
    finally:
        reader.close()


def verify(root, limit=20):
    """Reads every sample of a kept dataset in its format's order and checks it against what its seed makes (not only
    the recorded CRC-32s, which it checks too); returns (samples, bytes, problems)"""
    manifest = read_manifest(root)
    checks = Checks(root, manifest["samples"])
    seen, total, problems = set(), 0, []
    for index, data, _, failure, _ in sample_stream(root, manifest, units_of(manifest), checks, True, False, 1, 0, None):
        if failure is not None:
            problems.append(failure[1])
            break
        if index in seen:
            problems.append(f"sample {index}: delivered twice")
        seen.add(index)
        total += len(data)
        if data != sample_bytes(manifest["seed"], index, len(data)):
            problems.append(f"sample {index}: differs from its seed's content")
        if len(problems) >= limit:
            break
    if not problems and len(seen) != manifest["samples"]:
        problems.append(f"{len(seen)} samples read, the manifest lists {manifest['samples']}")
    return len(seen), total, problems


def main(argv):
    p = argparse.ArgumentParser(description="creates a dataset in one of PRISM's formats")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("create")
    c.add_argument("root")
    c.add_argument("--format", required=True, choices=FORMATS)
    c.add_argument("--samples", type=int, required=True)
    c.add_argument("--sample-size", type=int, required=True)
    c.add_argument("--size-jitter", type=float, default=0.0)
    c.add_argument("--shard-size", type=int, default=64 << 20)
    c.add_argument("--row-group", type=int, default=1 << 20)
    c.add_argument("--classes", type=int, default=100)
    c.add_argument("--seed", type=int, default=42)
    v = sub.add_parser("verify")
    v.add_argument("root")
    args = p.parse_args(argv)
    if args.command == "verify":
        samples, total, problems = verify(args.root)
        print(json.dumps({"samples": samples, "bytes": total, "problems": problems}))
        return
    m = create(args.root, args.format, args.samples, args.sample_size, args.size_jitter, args.shard_size,
               args.row_group, args.classes, args.seed)
    print(json.dumps({"format": m["format"], "samples": m["samples"], "bytes": m["bytes"], "files": m["fileCount"],
                      "fileBytes": m["fileBytes"]}))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])

"""PRISM's PyTorch benchmarks, run by torchrun: one process per rank.

Executes the real framework code paths (torch.save, torch.load, torch.distributed.checkpoint,
transformers' save_pretrained/from_pretrained, torch.utils.data.DataLoader) and writes one JSON
document per rank (schema prism.torchrank/1) with every phase timed in nanoseconds. PRISM's Java side
launches it with `python -m torch.distributed.run` and reads those documents.
"""
import argparse
import ctypes
import hashlib
import json
import math
import mmap
import os
import platform
import random
import socket
import sys
import time
import traceback

# Python runs isolated (-I), so neither the working directory nor this script's is on sys.path: this script's own
# directory (the run's private copy of PRISM's scripts) is put there by hand for its siblings, and nothing else
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def interposed(argv):
    """With --syscalls python, Python's file functions wrapped (prism_interpose.py beside this script), else None."""
    for i, a in enumerate(argv[:-1]):
        if a == "--syscalls" and argv[i + 1] == "python":
            import prism_interpose
            return prism_interpose.install()
    return None


# wrapped before torch is imported, so that every module torch loads sees the wrappers
INTERPOSER = interposed(sys.argv)

import torch
import torch.distributed as dist
import torch.nn as nn

BENCHMARKS = ("ddp_save", "ddp_load", "fsdp_save", "fsdp_load", "rl_load", "hf_load", "dataloader")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--benchmark", choices=BENCHMARKS, required=True)
    p.add_argument("--out", required=True, help="directory for the per-rank JSON documents")
    p.add_argument("--shared-dir", required=True, help="directory on the target for the checkpoint, model or dataset")
    p.add_argument("--model", default="synthetic", help="synthetic, gpt2, llama or bert")
    p.add_argument("--params", type=int, default=25_000_000, help="parameters, approximately")
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--optimizer", default="adam", choices=("adam", "sgd"))
    p.add_argument("--thread-count", type=int, default=1, help="DCP FileSystemWriter thread_count")
    p.add_argument("--sync-files", default="true", help="DCP FileSystemWriter sync_files")
    p.add_argument("--drop-cache", default="false", help="drop what is read from the page cache before reading it")
    p.add_argument("--full-state-dict", default="false", help="fsdp_load: gather the full state dict after loading")
    p.add_argument("--fault", default="none",
                   help="none, truncate_shard or flip_element (before loading), or crash_rank1")
    p.add_argument("--shard-size", type=int, default=5 << 30, help="hf_load: save_pretrained max_shard_size, bytes")
    p.add_argument("--dataset", default="", help="dataloader: a kept dataset's directory (else one is generated)")
    p.add_argument("--files", type=int, default=1000, help="dataloader: files of a generated dataset")
    p.add_argument("--file-size", type=int, default=128 << 10, help="dataloader: bytes per generated file")
    p.add_argument("--layout", default="flat", choices=("flat", "sharded"))
    p.add_argument("--shards", type=int, default=16)
    p.add_argument("--num-workers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--shuffle", default="true")
    p.add_argument("--epochs", type=int, default=1)
    # a preset's layout: the full job's tensor, pipeline and data parallelism, and the job rank local rank 0 plays
    p.add_argument("--tp", type=int, default=1)
    p.add_argument("--pp", type=int, default=1)
    p.add_argument("--dp", type=int, default=0, help="0: the ranks run divided by tp × pp")
    p.add_argument("--first-rank", type=int, default=0)
    p.add_argument("--job-metadata", default="true", help="fsdp_* presets: the whole job's .metadata (false: the"
                   " pieces written only)")
    p.add_argument("--restore-tp", type=int, default=0, help="fsdp_load: the layout restored into (0: as saved)")
    p.add_argument("--restore-pp", type=int, default=0)
    p.add_argument("--restore-dp", type=int, default=0)
    p.add_argument("--precision", default="mixed", choices=("bf16", "fp32", "mixed"))
    p.add_argument("--saves", type=int, default=1)
    p.add_argument("--loads", type=int, default=1)
    p.add_argument("--single-file-per-rank", default="true")
    p.add_argument("--per-thread-copy-ahead", type=int, default=10_000_000)
    p.add_argument("--async-save", default="false")
    p.add_argument("--replica-broadcast", default="false", help="ddp_load: one replica reads, broadcasts to the others")
    p.add_argument("--async-mode", default="thread", choices=("thread", "process", "staged"))
    p.add_argument("--mmap", default="false", help="ddp_load: torch.load(mmap=True); hf_load and fsdp_load of"
                   " safetensors: safetensors mmap")
    p.add_argument("--procedure", default="prism", choices=("prism", "mlperf"),
                   help="fsdp_load: PRISM's (the save untimed) or MLPerf Storage v3's checkpointing")
    p.add_argument("--accelerator-memory", type=int, default=80 << 30,
                   help="procedure=mlperf: one accelerator's memory, checked before the run (Java)")
    p.add_argument("--format", default="dcp", help="fsdp_*: dcp or safetensors; dataloader: files or a format of"
                   " prism_formats.py (parquet, arrow, tar_shards, indexed, image_folder, safetensors)")
    p.add_argument("--samples", type=int, default=1000, help="dataloader of a format: samples of a generated dataset")
    p.add_argument("--sample-size", type=int, default=32 << 10, help="dataloader of a format: bytes per sample")
    p.add_argument("--size-jitter", type=float, default=0.0, help="dataloader of a format: sizes within ± this share")
    p.add_argument("--row-group", type=int, default=1 << 20, help="dataloader of parquet: bytes per row group")
    p.add_argument("--classes", type=int, default=100, help="dataloader of image_folder: class directories")
    p.add_argument("--shuffle-buffer", type=int, default=1000, help="dataloader of tar_shards: WebDataset's buffer")
    p.add_argument("--consolidate", default="none", choices=("none", "one_rank", "every_rank"),
                   help="fsdp_* safetensors: merge the ranks' files into full ones on rank 0 or spread over every rank")
    p.add_argument("--syscalls", default="off", choices=("off", "kernel", "python"),
                   help="kernel: PRISM traces this process in the kernel (the windows say when its timed phase ran);"
                        " python: wrap open and os.* in this process")
    return p.parse_args(argv)


def flag(text):
    return str(text).lower() in ("1", "true", "yes", "on")


class Recorder:
    """Phase timings (ns), bytes and counters of this rank, written as prism.torchrank/1."""

    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        self.phases, self.bytes, self.counters = {}, {}, {}
        self.elapsed = {}  # phase -> wall time its operations' rate is over, where it is not their sum
        self.notes = {}
        self.lowest_rates = {}  # phase -> [(nanos, bytes)] of the lowest-rate rank per checkpoint (rank 0)
        self.timed_phase_ns = 0
        # [start, end] of every block of the timed phase, on CLOCK_MONOTONIC (perf_counter_ns on Linux): the system
        # calls made inside them are the ones attributed (syscalls=kernel in Java, python here)
        self.windows = []

    def window(self, timed=True):
        """A block of the timed phase that is not one timer (an epoch, an async save); nothing when not `timed`."""
        recorder = self

        class Window:
            def __enter__(self):
                if INTERPOSER and timed:
                    INTERPOSER.active += 1
                self.start = time.perf_counter_ns()
                return self

            def __exit__(self, *exc):
                if timed:
                    recorder.windows.append([self.start, time.perf_counter_ns()])
                    if INTERPOSER:
                        INTERPOSER.active -= 1
                return False
        return Window()

    def record(self, name, nanos):
        """One operation timed elsewhere (a DataLoader worker's read)."""
        self.phases.setdefault(name, []).append(int(nanos))

    def count(self, name, amount=1):
        self.counters[name] = self.counters.get(name, 0) + amount

    def add_bytes(self, name, amount):
        self.bytes[name] = self.bytes.get(name, 0) + amount

    def time(self, name, timed_phase=False):
        """Times a block as one operation of `name`; `as timer` gives its nanoseconds afterwards (timer.nanos)."""
        recorder = self

        class Timer:
            def __enter__(self):
                if INTERPOSER and timed_phase:
                    INTERPOSER.active += 1
                self.start = time.perf_counter_ns()
                return self

            def __exit__(self, *exc):
                self.nanos = time.perf_counter_ns() - self.start
                if timed_phase:
                    recorder.windows.append([self.start, self.start + self.nanos])
                    if INTERPOSER:
                        INTERPOSER.active -= 1
                recorder.phases.setdefault(name, []).append(self.nanos)
                if timed_phase:
                    recorder.timed_phase_ns += self.nanos
                return False
        return Timer()

    def write(self, out, status="PASS", failure=None, extra=None):
        doc = {"schema": "prism.torchrank/1", "rank": self.rank, "world": self.world,
               "hostname": socket.gethostname(), "status": status, "failure": failure,
               "phaseNanos": self.timed_phase_ns, "phases": self.phases, "bytes": self.bytes,
               "elapsedNanos": self.elapsed,
               "counters": self.counters, "torch": torch.__version__, "notes": self.notes,
               "pid": os.getpid(), "windows": self.windows}
        if INTERPOSER:
            INTERPOSER.report(self.phases, self.bytes, self.counters, self.notes)
        doc.update(extra or {})
        os.makedirs(out, exist_ok=True)
        write_durably(os.path.join(out, f"rank-{self.rank}.json"), "w", lambda f: json.dump(doc, f))


def write_durably(path, mode, fill):
    """fill(file) into a temporary file beside `path`, fsync, rename: the file is whole on storage or absent."""
    tmp = path + ".tmp"
    with open(tmp, mode) as f:
        fill(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class ValidationError(Exception):
    pass


def synthetic_width(params, layers):
    return max(8, int(math.sqrt(params / max(1, layers))))


def synthetic_model(params, layers):
    width = synthetic_width(params, layers)
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*blocks)


VOCAB = 8192


def hf_model(kind, params, layers):
    """A Hugging Face architecture at about this size, built from its config class: nothing is downloaded."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers
    vocab = VOCAB
    # each layer holds about 12·h² parameters; the embeddings vocab·h: solve 12·L·h² + vocab·h = params
    h = (-vocab + math.sqrt(vocab * vocab + 48.0 * layers * params)) / (24.0 * layers)
    h = max(64, int(h // 64) * 64)
    heads = max(1, h // 64)
    if kind == "gpt2":
        config = transformers.GPT2Config(vocab_size=vocab, n_positions=256, n_embd=h, n_layer=layers, n_head=heads,
                                         tie_word_embeddings=False)
        model = transformers.AutoModelForCausalLM.from_config(config)
    elif kind == "llama":
        config = transformers.LlamaConfig(vocab_size=vocab, hidden_size=h, intermediate_size=int(h * 8 / 3) // 64 * 64,
                                          num_hidden_layers=layers, num_attention_heads=heads,
                                          num_key_value_heads=heads, max_position_embeddings=256,
                                          tie_word_embeddings=False)
        model = transformers.AutoModelForCausalLM.from_config(config)
    elif kind == "bert":
        config = transformers.BertConfig(vocab_size=vocab, hidden_size=h, num_hidden_layers=layers,
                                         num_attention_heads=heads, intermediate_size=4 * h,
                                         max_position_embeddings=256, tie_word_embeddings=False)
        model = transformers.AutoModel.from_config(config)
    else:
        raise ValueError(f"model must be synthetic, gpt2, llama or bert, was {kind!r}")
    return model


def build_model(args):
    torch.manual_seed(1234)
    if args.model == "synthetic":
        return synthetic_model(args.params, args.layers)
    return hf_model(args.model, args.params, args.layers)


def blocks_of(model):
    """The repeated blocks FSDP shards one by one."""
    for name in ("transformer.h", "model.layers", "encoder.layer"):
        node = model
        try:
            for part in name.split("."):
                node = getattr(node, part)
            return list(node)
        except AttributeError:
            continue
    return [m for m in model if isinstance(m, nn.Linear)] if isinstance(model, nn.Sequential) else []


def model_input(args, batch, device):
    """The batch a model's forward pass takes: random features, or token ids for a Hugging Face model."""
    if args.model == "synthetic":
        width = synthetic_width(args.params, args.layers)
        return torch.randn(batch, width, device=device)
    return torch.randint(0, VOCAB, (batch, 32), device=device)


def train_step(model, inputs, optimizer):
    optimizer.zero_grad()
    out = model(inputs)
    tensor = out if torch.is_tensor(out) else (out.logits if hasattr(out, "logits") else out.last_hidden_state)
    loss = tensor.float().pow(2).mean()
    loss.backward()
    optimizer.step()


def make_optimizer(kind, parameters):
    """Adam (two state tensors per parameter, as most training runs) or SGD with momentum (one)."""
    if kind == "adam":
        return torch.optim.Adam(parameters, lr=1e-3)
    return torch.optim.SGD(parameters, lr=0.01, momentum=0.9)


def flat_tensors(state, prefix=""):
    """(key, tensor) for every tensor in a nested state dict (model and optimizer), keys joined with '.'."""
    if torch.is_tensor(state):
        yield prefix, state
    elif isinstance(state, dict):
        for key, value in state.items():
            yield from flat_tensors(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(state, (list, tuple)):
        for i, value in enumerate(state):
            yield from flat_tensors(value, f"{prefix}.{i}")


def checksum(state):
    """A position-weighted float64 sum over every tensor: a missing, changed or swapped tensor changes it."""
    total = 0.0
    for position, (_, value) in enumerate(sorted(flat_tensors(state), key=lambda kv: kv[0])):
        if hasattr(value, "full_tensor"):
            value = value.full_tensor()
        total += (position + 1) * value.detach().to("cpu", torch.float64).sum().item()
    return total


def digests(state):
    """Per tensor, a BLAKE2b digest of its bytes as they are: one changed bit of any element changes its key's digest
    (a float sum cannot see a low mantissa bit, and DCP's torch.load reads no CRC)."""
    out = {}
    for key, value in flat_tensors(state):
        if hasattr(value, "full_tensor"):
            value = value.full_tensor()
        raw = value.detach().to("cpu").contiguous().reshape(-1).view(torch.uint8)
        out[key] = hashlib.blake2b(raw.numpy(), digest_size=16).hexdigest()
    return out


def verify_checksum(state, expected, where, after, expected_digests=None):
    """Raises ValidationError naming the checkpoint, and the tensors that differ, when the loaded state is not the
    saved one: element by element through each tensor's digest where the save recorded them, and by the sum."""
    if expected_digests is not None:
        got_digests = digests(state)
        changed = sorted(k for k in expected_digests if got_digests.get(k) != expected_digests[k])
        extra = sorted(set(got_digests) - set(expected_digests))
        if changed or extra:
            named = changed[:5] + ([f"{len(changed) - 5} more"] if len(changed) > 5 else [])
            said = (f"{len(changed)} of the {len(expected_digests)} saved tensors differ after {after}"
                    f" ({', '.join(named)})" if changed else f"after {after}")
            if extra:
                said += f"; {len(extra)} tensor(s) were not saved ({', '.join(extra[:5])})"
            raise ValidationError(f"{where}: {said}")
    got = checksum(state)
    if not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-6):
        raise ValidationError(f"{where}: checksum {got!r} after {after}, {expected!r} when saved")
    return got


def scramble(model, optimizer=None):
    """Zeroes the model and optimizer state in memory, so that only a load that works can pass verification."""
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
        if optimizer is not None:
            for state in optimizer.state.values():
                for value in state.values():
                    if torch.is_tensor(value):
                        value.zero_()


def files_under(paths):
    """Each path that is a file, and every file under each that is a directory."""
    files = []
    for path in paths:
        files += [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs] if os.path.isdir(path) else [path]
    return files


def drop_from_page_cache(paths, sync=True):
    """Drops each file (or every file under a directory) from this node's page cache; returns how many files.

    sync writes dirty pages first (our own checkpoints); a kept dataset is only read, never synced."""
    files = files_under(paths)
    for name in files:
        fd = os.open(name, os.O_RDONLY)
        try:
            if sync:
                os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return len(files)


class Residency:
    """Counts a file's pages in the page cache with mmap + mincore, as fincore does (libc through ctypes)."""

    def __init__(self):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        self.libc, self.page = libc, os.sysconf("SC_PAGE_SIZE")
        self.failed = ctypes.c_void_p(-1).value

    def pages(self, paths):
        """(resident, total) pages of these files."""
        resident = total = 0
        for path in paths:
            fd = os.open(path, os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
                if size == 0:
                    continue
                addr = self.libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
                if addr is None or addr == self.failed:
                    raise OSError(ctypes.get_errno(), f"mmap({path}) failed: {os.strerror(ctypes.get_errno())}")
                try:
                    n = (size + self.page - 1) // self.page
                    vec = (ctypes.c_ubyte * n)()
                    if self.libc.mincore(addr, size, vec) != 0:
                        raise OSError(ctypes.get_errno(), f"mincore({path}) failed: {os.strerror(ctypes.get_errno())}")
                    resident += sum(1 for b in bytes(vec) if b & 1)
                    total += n
                finally:
                    self.libc.munmap(addr, size)
            finally:
                os.close(fd)
        return resident, total


def process_io():
    """This process's /proc/self/io as {field: value} (rchar, syscr, read_bytes…), its reaped children (DataLoader
    workers) included; empty where the kernel does not give it."""
    try:
        with open("/proc/self/io") as f:
            return {name: int(value) for name, value in (line.split(":") for line in f)}
    except (OSError, ValueError):
        return {}


def storage_read_bytes():
    """This process's bytes fetched from storage (read_bytes: from a block device), -1 where not known."""
    return process_io().get("read_bytes", -1)


def flip_in_archive(path, offset, length):
    """Inverts one byte in the middle of the first tensor data entry of the torch.save archive at `offset` (`length`
    bytes) in `path`, in place, and fsyncs it. Returns the byte's position and the entry's name."""
    import io
    import zipfile
    with open(path, "rb") as f:
        f.seek(offset)
        archive_bytes = f.read(length)
    archive = zipfile.ZipFile(io.BytesIO(archive_bytes))
    entry = archive.getinfo(sorted((n for n in archive.namelist() if "/data/" in n),
                                   key=lambda n: archive.getinfo(n).header_offset)[0])
    # the entry's bytes come after its local header: 30 bytes, then its name and extra field
    header = archive_bytes[entry.header_offset:entry.header_offset + 30]
    start = entry.header_offset + 30 + int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")
    at = offset + start + entry.file_size // 2
    with open(path, "r+b") as f:
        f.seek(at)
        was = f.read(1)
        f.seek(at)
        f.write(bytes([was[0] ^ 0xFF]))
        f.flush()
        os.fsync(f.fileno())
    return at, entry.filename


def flip_dcp_element(dcp_dir):
    """Silent corruption the size of one element: a byte inverted inside the data of the first model tensor of a DCP
    checkpoint, which dcp.load does not notice (its torch.load of each item reads no CRC) and verification must.
    Returns what it did, naming the tensor's key."""
    from torch.distributed.checkpoint import FileSystemReader
    metadata = FileSystemReader(dcp_dir).read_metadata()
    index, info = min(((i, s) for i, s in metadata.storage_data.items() if i.fqn.startswith("model.")),
                      key=lambda item: (item[0].fqn, item[1].offset))
    path = os.path.join(dcp_dir, info.relative_path)
    at, _ = flip_in_archive(path, info.offset, info.length)
    return f"flipped the byte at {at} of {path}, inside {index.fqn}"


def flip_torch_save_element(path):
    """The same in a torch.save file: a byte inverted inside its first tensor's data (torch.load reads no CRC)."""
    at, entry = flip_in_archive(path, 0, os.path.getsize(path))
    return f"flipped the byte at {at} of {path}, inside its entry {entry}"


def diagnose_dcp(dcp_dir, error=None, limit=5):
    """Says why a DCP checkpoint could not be read: the reader's own error (its first line, bounded), then the shard
    files shorter than the checkpoint's metadata says they must be, and those missing, `limit` of each named at most
    (a subset run of a large job writes only its own ranks' files, so thousands may be absent by design)."""
    said = ""
    if error is not None:
        text = (str(error).strip().splitlines() or [""])[0]
        said = f"{type(error).__name__}: {text[:300]}{'…' if len(text) > 300 else ''}; "
    try:
        from torch.distributed.checkpoint import FileSystemReader
        metadata = FileSystemReader(dcp_dir).read_metadata()
        need = {}
        for info in metadata.storage_data.values():
            need[info.relative_path] = max(need.get(info.relative_path, 0), info.offset + info.length)
        truncated, missing = [], []
        for name, size in sorted(need.items()):
            path = os.path.join(dcp_dir, name)
            have = os.path.getsize(path) if os.path.exists(path) else -1
            if have < 0:
                missing.append(name)
            elif have < size:
                truncated.append(f"{path} is truncated: holds {have} bytes, the checkpoint's metadata needs {size}")
        parts = truncated[:limit] + ([f"and {len(truncated) - limit} more truncated"] if len(truncated) > limit else [])
        if missing:
            parts.append(f"{len(missing)} of the {len(need)} shard files its metadata names are not in {dcp_dir}"
                         f" ({', '.join(missing[:limit])}{', …' if len(missing) > limit else ''})")
        return said + ("; ".join(parts) if parts else f"every shard in {dcp_dir} has the size its metadata gives")
    except BaseException as e:
        return said + f"{dcp_dir}/.metadata is unreadable: {e}"


def diagnose_torch_save(path, written):
    """Says what is wrong with a torch.save file that torch.load refused, in PRISM's words: its size against what
    torch.save wrote (`written`, -1 when not known), and whether it is still a whole zip archive, as torch.save writes."""
    import zipfile
    if not os.path.exists(path):
        return f"{path} is missing"
    have = os.path.getsize(path)
    if 0 <= written and have < written:
        return f"{path} is truncated: holds {have} bytes, torch.save wrote {written}"
    if 0 <= written < have:
        return f"{path} has grown: holds {have} bytes, torch.save wrote {written}"
    if not zipfile.is_zipfile(path):
        return f"{path} is damaged: its {have} bytes are not a whole torch.save archive (no zip directory at its end)"
    return f"{path} holds the {have} bytes torch.save wrote, yet torch.load refused it"


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def fully_shard_fn():
    try:
        from torch.distributed.fsdp import fully_shard
    except ImportError:
        from torch.distributed._composable.fsdp import fully_shard
    return fully_shard


def shard(model, device_type, world):
    from torch.distributed.device_mesh import init_device_mesh
    fully_shard = fully_shard_fn()
    mesh = init_device_mesh(device_type, (world,))
    for block in blocks_of(model):
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model


def train_between_barriers(rec, args, model, inputs):
    """One timed training iteration between the paper's first two barriers; returns its optimizer, with state."""
    optimizer = make_optimizer(args.optimizer, model.parameters())
    with rec.time("barrier_before_train"):
        dist.barrier()
    with rec.time("train"):
        train_step(model, inputs, optimizer)
    with rec.time("barrier_after_train"):
        dist.barrier()
    return optimizer


def placement(cuda_available, local_rank):
    """(device, backend) of a rank: its own GPU with NCCL where there are GPUs, else the CPU with gloo."""
    if cuda_available:
        return torch.device("cuda", local_rank), "nccl"
    return torch.device("cpu"), "gloo"


def what_ran(device, world):
    """The versions and the place this rank ran with, for the result's notes."""
    try:
        import importlib.metadata as metadata
        transformers = metadata.version("transformers")
    except Exception:
        transformers = "not installed"
    where = str(device)
    if device.type == "cuda":
        where += " (" + torch.cuda.get_device_name(device) + ", CUDA " + str(torch.version.cuda) + ")"
    return {"python": platform.python_version(), "torch_version": torch.__version__, "transformers": transformers,
            "device": where, "world_size": str(world), "programs": "python, torch_version, transformers"}


def synchronize(device):
    """Waits for the device's queued work, so that a GPU timer holds the work and not only its launch."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def main(argv):
    args = parse_args(argv)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    device, backend = placement(torch.cuda.is_available(), int(os.environ.get("LOCAL_RANK", "0")))
    if device.type == "cuda":
        torch.cuda.set_device(device)
    rec = Recorder(rank, world)
    rec.notes.update(what_ran(device, world))
    if args.syscalls == "kernel":
        # a marker for PRISM's tracer, which learns this process's rank from the path (nothing is there, nothing written)
        try:
            os.stat(os.path.join(args.out, f"rank-{rank}.traced"))
        except OSError:
            pass
    try:
        dist.init_process_group(backend)
        rec.notes["backend"] = dist.get_backend()
        run = {"hf_load": hf_load, "dataloader": dataloader}.get(args.benchmark, checkpoint)
        extra = run(args, rec, rank, world, device)
        rec.write(args.out, extra=extra)
    except ValidationError as e:
        rec.write(args.out, "FAIL", {"kind": "VALIDATION", "message": str(e), "rank": rank})
    except DataReadError as e:  # its message names the call, the file and the errno: no traceback to add
        rec.write(args.out, "FAIL", {"kind": "EXCEPTION", "message": str(e), "rank": rank})
    except BaseException as e:
        rec.write(args.out, "FAIL", {"kind": "EXCEPTION", "rank": rank,
                                     "message": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"})
        raise
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()


def save_checksums(path, **sums):
    with open(path, "w") as f:
        json.dump(sums, f)


def load_checksums(path):
    with open(path) as f:
        return json.load(f)


def checkpoint(args, rec, rank, world, device):
    """ddp_save, ddp_load, fsdp_save, fsdp_load and rl_load: model and optimizer state through torch.save or DCP."""
    ckpt = args.shared_dir
    os.makedirs(ckpt, exist_ok=True)
    import prism_shards
    if args.model in prism_shards.ARCHITECTURES:
        if args.fault != "none":
            raise ValueError("faults are injected into the checkpoints of whole models, not of presets")
        return preset_checkpoint(args, rec, rank, world, device)
    with rec.time("build_model"):
        model = build_model(args).to(device)
    if rank == 0:
        rec.counters["model_parameters"] = sum(p.numel() for p in model.parameters())
    inputs = model_input(args, args.batch, device)
    if args.fault == "crash_rank1" and rank == 1:
        raise RuntimeError("crash_rank1: rank 1 was told to crash")
    if args.benchmark in ("ddp_save", "ddp_load"):
        return ddp_checkpoint(args, rec, rank, model, inputs, device)
    if args.format == "safetensors":
        return safetensors_checkpoint(args, rec, rank, world, model, inputs, device)
    return dcp_checkpoint(args, rec, rank, world, model, inputs, device)


def ddp_checkpoint(args, rec, rank, model, inputs, device):
    from torch.nn.parallel import DistributedDataParallel as DDP
    bench, path = args.benchmark, os.path.join(args.shared_dir, "model.pt")
    sums = os.path.join(args.shared_dir, "checksums.json")
    # Hugging Face models have parameters the loss may not reach (BERT's pooler): let DDP allow for them
    ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
              find_unused_parameters=args.model != "synthetic")
    optimizer = train_between_barriers(rec, args, ddp, inputs)
    for _ in range(args.saves):
        dist.barrier()
        if rank == 0:
            state = {"model": ddp.module.state_dict(), "optimizer": optimizer.state_dict()}
            with rec.time("save", timed_phase=(bench == "ddp_save")):
                write_durably(path, "wb", lambda f: torch.save(state, f))
            rec.add_bytes("save", os.path.getsize(path))
            rec.counters["checkpoint_files"] = 1
            save_checksums(sums, all=checksum(state), all_digests=digests(state), bytes=os.path.getsize(path))
        with rec.time("barrier_after_io"):
            dist.barrier()
    if bench == "ddp_save":
        if rank == 0 and not os.path.getsize(path):
            raise ValidationError(f"{path} is empty after torch.save")
        return {}
    if args.fault == "truncate_shard" and rank == 0:
        os.truncate(path, os.path.getsize(path) // 8)
    if args.fault == "flip_element" and rank == 0:
        rec.notes["fault"] = flip_torch_save_element(path)
    for _ in range(args.loads):
        cold_before_load(args, rec, [path])
        scramble(ddp.module, optimizer)
        dist.barrier()
        with LoadObservers(rec), rec.time("load", timed_phase=True):
            try:
                loaded = torch.load(path, map_location=device, weights_only=True, mmap=flag(args.mmap))
            except Exception as e:
                said = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise RuntimeError(f"{diagnose_torch_save(path, load_checksums(sums).get('bytes', -1))}"
                                   f" (torch.load said: {said})") from e
            ddp.module.load_state_dict(loaded["model"])
            optimizer.load_state_dict(loaded["optimizer"])
            del loaded
            synchronize(device)
        rec.add_bytes("load", os.path.getsize(path))
    expected = load_checksums(sums)
    got = verify_checksum({"model": ddp.module.state_dict(), "optimizer": optimizer.state_dict()},
                          expected["all"], path, "loading model and optimizer", expected["all_digests"])
    with rec.time("train_after_load"):
        train_step(ddp, inputs, optimizer)
    with rec.time("barrier_after_io"):
        dist.barrier()
    return {"checksum": got}


def dcp_checkpoint(args, rec, rank, world, model, inputs, device):
    """FSDP2 + DCP: every rank writes its shard of the model and optimizer state (get_state_dict/set_state_dict)."""
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import FileSystemReader
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict, set_state_dict
    bench, dcp_dir = args.benchmark, os.path.join(args.shared_dir, "dcp")
    sums = os.path.join(args.shared_dir, "checksums.json")
    full = StateDictOptions(full_state_dict=True, cpu_offload=True)
    model = shard(model, device.type, world)
    optimizer = train_between_barriers(rec, args, model, inputs)
    full_model, full_optim = get_state_dict(model, optimizer, options=full)
    if rank == 0:
        save_checksums(sums, all=checksum({"model": full_model, "optim": full_optim}),
                       all_digests=digests({"model": full_model, "optim": full_optim}),
                       model=checksum({"model": full_model}), model_digests=digests({"model": full_model}))
    del full_model, full_optim
    model_state, optim_state = get_state_dict(model, optimizer)
    dcp_dir = dcp_save_cycles(args, rec, rank, world, {"model": model_state, "optim": optim_state},
                              os.path.join(args.shared_dir, "dcp"), timed=bench == "fsdp_save", device=device)
    if bench == "fsdp_save":
        return {}
    dist.barrier()
    if args.fault == "truncate_shard" and rank == 0:
        victim = sorted(f for f in os.listdir(dcp_dir) if f.endswith(".distcp"))[-1]
        victim_path = os.path.join(dcp_dir, victim)
        os.truncate(victim_path, os.path.getsize(victim_path) // 8)
    if args.fault == "flip_element" and rank == 0:
        rec.notes["fault"] = flip_dcp_element(dcp_dir)
    dist.barrier()
    expected = load_checksums(sums)
    if bench == "fsdp_load":
        def scrambled():
            scramble(model, optimizer)
            model_state, optim_state = get_state_dict(model, optimizer)
            return {"model": model_state, "optim": optim_state}

        def load_into(target):
            set_state_dict(model, optimizer, model_state_dict=target["model"], optim_state_dict=target["optim"])
            synchronize(device)

        def verify():
            full_model, full_optim = get_state_dict(model, optimizer, options=full)
            if rank == 0:
                verify_checksum({"model": full_model, "optim": full_optim}, expected["all"], dcp_dir,
                                "dcp.load of model and optimizer", expected["all_digests"])
        dcp_load_cycles(args, rec, rank, world, dcp_dir, scrambled, load_into, verify)
        if flag(args.full_state_dict):
            with rec.time("full_state_dict"):
                get_state_dict(model, optimizer, options=full)
        with rec.time("train_after_load"):
            train_step(model, inputs, optimizer)
        with rec.time("barrier_after_io"):
            dist.barrier()
        return {}
    # rl_load: every rank is a reader that needs the whole model (weights only) from the sharded checkpoint
    if flag(args.drop_cache):
        # every rank drops what it may read (on several nodes each node has its own page cache)
        with rec.time("drop_cache"):
            rec.counters["files_dropped"] = drop_from_page_cache([dcp_dir])
        dist.barrier()
    reader_model = build_model(args)
    scramble(reader_model)
    full_target = {"model": {k: v.detach().clone() for k, v in reader_model.state_dict().items()}}
    with rec.time("consolidate", timed_phase=True):
        try:
            try:
                dcp.load(full_target, storage_reader=FileSystemReader(dcp_dir), no_dist=True)
            except TypeError:
                # torch < 2.5 has no no_dist: consolidate through a single-file copy instead
                from torch.distributed.checkpoint.format_utils import dcp_to_torch_save
                single = os.path.join(args.shared_dir, f"consolidated-{rank}.pt")
                dcp_to_torch_save(dcp_dir, single)
                full_target = {"model": torch.load(single, weights_only=True)["model"]}
        except BaseException as e:  # DCP's CheckpointException derives from BaseException
            raise RuntimeError(f"consolidating {dcp_dir} failed: {diagnose_dcp(dcp_dir, e)}") from e
    # it reads the model's tensors and none of the optimizer's
    rec.bytes["consolidate"] = sum(t.numel() * t.element_size() for _, t in flat_tensors(full_target))
    got = verify_checksum(full_target, expected["model"], dcp_dir, "consolidation", expected["model_digests"])
    with rec.time("barrier_after_io"):
        dist.barrier()
    return {"checksum": got}


def output_files(state, limit):
    """Hugging Face's layout of full files: tensors in state-dict order, a new file once the next tensor would take
    one past `limit` bytes (as save_pretrained's max_shard_size). Returns name → 1-based file index."""
    mapping, index, used = {}, 1, 0
    for name, tensor in state.items():
        size = tensor.numel() * tensor.element_size()
        if used and used + size > limit:
            index, used = index + 1, 0
        mapping[name] = index
        used += size
    return mapping


def merged_by(mapping, rank, world, consolidate):
    """The full files a rank writes: every one on rank 0 alone (one_rank), file i by rank i mod ranks (every_rank,
    consolidate_safetensors_files_on_every_rank's rule); named as Hugging Face names them."""
    top = max(mapping.values())
    return [f"model-{i:05d}-of-{top:05d}.safetensors" for i in sorted(set(mapping.values()))
            if consolidate == "one_rank" or i % world == rank]


def files_in(directory, suffix):
    return sorted(f for f in os.listdir(directory) if f.endswith(suffix)) if os.path.isdir(directory) else []


def safetensors_checkpoint(args, rec, rank, world, model, inputs, device):
    """format=safetensors: the FSDP2 model's weights saved as Hugging Face safetensors through DCP's
    HuggingFaceStorageWriter, every rank its own file of its shards (save), then, with consolidate, merged into full
    files of at most shard_size (consolidate: the rank's own merging; consolidated: until every full file is written,
    on every rank, so a rank left idle while rank 0 merges shows the wait). fsdp_load reads the full files as an
    evaluation or inference job does, every rank all of them, with safetensors' mmap or by reading each file."""
    import shutil
    import safetensors.torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import HuggingFaceStorageWriter
    from torch.distributed.checkpoint._consolidate_hf_safetensors import (
        consolidate_safetensors_files, consolidate_safetensors_files_on_every_rank)
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
    bench = args.benchmark
    shards_dir = os.path.join(args.shared_dir, "hf-shards")
    full_dir = os.path.join(args.shared_dir, "hf-model")
    sums = os.path.join(args.shared_dir, "checksums.json")
    model = shard(model, device.type, world)
    train_between_barriers(rec, args, model, inputs)
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if rank == 0:  # with cpu_offload only rank 0 holds the full state
        save_checksums(sums, model=checksum(full), model_digests=digests(full))
    del full
    state = get_model_state_dict(model)
    # every rank lays out the full files alike: a DTensor's shape and numel are the full tensor's
    mapping = output_files(state, args.shard_size)
    timed = bench == "fsdp_save"
    rec.notes["consolidated_by"] = {"none": "nobody", "one_rank": "rank 0",
                                    "every_rank": "every rank, a share of the files"}[args.consolidate]
    for i in range(1, args.saves + 1):
        if rank == 0:
            for stale in (shards_dir, full_dir):
                shutil.rmtree(stale, ignore_errors=True)
            os.makedirs(full_dir)
        dist.barrier()
        writer = HuggingFaceStorageWriter(shards_dir, save_distributed=True, thread_count=args.thread_count)
        writer.sync_files = flag(args.sync_files)
        with rec.time("save", timed_phase=timed):
            dcp.save(state, storage_writer=writer)
        # the files of this rank: HuggingFaceStorageWriter numbers them by the rank's place among the plans
        mine = [f for f in files_in(shards_dir, ".safetensors") if f.startswith(f"shard-{rank + 1:05d}-")]
        rec.add_bytes("save", sum(os.path.getsize(os.path.join(shards_dir, f)) for f in mine))
        rec.counters["checkpoint_files"] = len(mine)
        if args.consolidate == "none":
            continue
        dist.barrier()
        start = time.perf_counter_ns()
        if args.consolidate == "every_rank" or rank == 0:
            with rec.time("consolidate", timed_phase=timed):
                if args.consolidate == "every_rank":
                    consolidate_safetensors_files_on_every_rank(shards_dir, full_dir, mapping,
                                                                num_threads=args.thread_count)
                else:
                    consolidate_safetensors_files(shards_dir, full_dir, mapping, num_threads=args.thread_count)
                wrote = merged_by(mapping, rank, world, args.consolidate)
                missing = [f for f in wrote if not os.path.exists(os.path.join(full_dir, f))]
                if missing:
                    raise ValidationError(f"{full_dir}: no {missing[0]} after this rank's consolidation")
                if flag(args.sync_files):
                    fsync_files(full_dir, wrote)
            rec.add_bytes("consolidate", sum(os.path.getsize(os.path.join(full_dir, f)) for f in wrote))
            rec.counters["consolidated_files"] = len(wrote)
        dist.barrier()
        rec.record("consolidated", time.perf_counter_ns() - start)
    if args.consolidate != "none" and rank == 0:
        made = files_in(full_dir, ".safetensors")
        if len(made) != max(mapping.values()):
            raise ValidationError(f"{full_dir} holds {len(made)} .safetensors files after consolidation, not the"
                                  f" {max(mapping.values())} the model's {len(mapping)} tensors fill")
    if bench == "fsdp_save":
        return {}
    dist.barrier()
    saved = load_checksums(sums)
    expected = saved["model"]
    weights = [os.path.join(full_dir, f) for f in files_in(full_dir, ".safetensors")]
    for _ in range(args.loads):
        cold_before_load(args, rec, [full_dir])
        dist.barrier()
        loaded = {}
        # mmap: load_file maps each file and the tensors are views of the mapping, which the kernel fills in one pass
        # (for 256 MB from a dropped cache: read_bytes the whole file, about a hundred faults, no copy); else each
        # file is read whole into a buffer and the tensors are copied from it
        with LoadObservers(rec), rec.time("load", timed_phase=True):
            for path in weights:
                if flag(args.mmap):
                    loaded.update(safetensors.torch.load_file(path))
                else:
                    with open(path, "rb") as f:
                        loaded.update(safetensors.torch.load(f.read()))
        rec.add_bytes("load", sum(os.path.getsize(p) for p in weights))
        rec.counters["model_files"] = len(weights)
        verify_checksum(loaded, expected, full_dir, "loading the consolidated safetensors", saved["model_digests"])
        del loaded
    with rec.time("barrier_after_io"):
        dist.barrier()
    return {}


def fsync_files(directory, names):
    """fsyncs files a consolidation wrote (safetensors' writer does not), then their directory."""
    for name in names:
        fd = os.open(os.path.join(directory, name), os.O_RDONLY | os.O_NOFOLLOW)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---- the process's own observers: page faults, storage reads, resident memory ----

def page_faults():
    """(minor, major) page faults of this process so far (/proc/self/stat, fields 10 and 12): a major fault had to
    fetch its page from storage; a minor one found it in the page cache (readahead brought most of a mapping's)."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[7]), int(fields[9])
    except (OSError, IndexError, ValueError):
        return -1, -1


def resident_bytes():
    """This process's resident memory now (/proc/self/statm)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return -1


class LoadObservers:
    """Counts what the kernel saw during a load: page faults (minor and major), read calls and the bytes they
    returned, and bytes read from a block device (/proc/self/stat and /proc/self/io), as counters beside PRISM's
    timings. A load through mmap shows as faults with few bytes read; a plain load as read calls returning the file."""

    def __init__(self, rec):
        self.rec = rec

    @staticmethod
    def now():
        """syscr and rchar are the read calls and the bytes they returned, on any filesystem; read_bytes only what
        came from a block device"""
        (minor, major), io = page_faults(), process_io()
        return {"load_minor_faults": minor, "load_major_faults": major, "load_read_calls": io.get("syscr", -1),
                "load_read_call_bytes": io.get("rchar", -1), "load_storage_read_bytes": io.get("read_bytes", -1)}

    def __enter__(self):
        self.before = self.now()
        return self

    def __exit__(self, *exc):
        for name, value in self.now().items():
            if value >= 0 and self.before[name] >= 0:
                self.rec.count(name, value - self.before[name])
        return False


def cold_before_load(args, rec, paths):
    """Before each load: with drop_cache every rank drops `paths` from its node's page cache, once every rank has
    passed a barrier (none still writes them); then what stayed is counted, just before the clock."""
    if flag(args.drop_cache):
        dist.barrier()
        with rec.time("drop_cache"):
            rec.counters["files_dropped"] = drop_from_page_cache(paths)
    resident_before_load(rec, paths)


def resident_before_load(rec, paths):
    """Counts the checkpoint's pages in this node's page cache just before a load (mincore)."""
    resident, pages = Residency().pages(files_under(paths))
    rec.count("resident_pages_before_load", resident)
    rec.count("pages_before_load", pages)


def record_slowest(rec, phase, nanos, nbytes, world, lowest_rate=False):
    """MLPerf Storage's rule: a checkpoint's save or load lasts as long as its slowest rank. Rank 0 records that
    (with every rank's bytes, so its rate is the aggregate throughput) and the fastest rank's beside it. A rank that
    took no part (nanos None: a data-parallel replica whose shard another rank wrote) counts in neither. With
    `lowest_rate`, also MLPerf's throughput: the time and bytes of the rank whose own rate is the lowest, as
    phase_lowest_rate (so the table's rate column is that rank's rate), kept per checkpoint in rec.lowest_rates."""
    everyone = [None] * world
    dist.all_gather_object(everyone, (nanos, int(nbytes)))
    took_part = [(n, b) for n, b in everyone if n is not None]
    if dist.get_rank() == 0 and took_part:
        rec.record(phase + "_slowest", max(n for n, _ in took_part))
        rec.record(phase + "_fastest", min(n for n, _ in took_part))
        rec.bytes[phase + "_slowest"] = rec.bytes.get(phase + "_slowest", 0) + sum(b for _, b in everyone)
        if lowest_rate:
            n, b = min(took_part, key=lambda e: e[1] / max(e[0], 1))
            rec.record(phase + "_lowest_rate", n)
            rec.bytes[phase + "_lowest_rate"] = rec.bytes.get(phase + "_lowest_rate", 0) + b
            rec.lowest_rates.setdefault(phase, []).append((n, b))


# ---- DCP: the writer as training configures it, sync or async, saves=N then loads=N ----

def dcp_writer(args, directory):
    from torch.distributed.checkpoint import FileSystemWriter
    return FileSystemWriter(directory, single_file_per_rank=flag(args.single_file_per_rank),
                            sync_files=flag(args.sync_files), thread_count=args.thread_count,
                            per_thread_copy_ahead=args.per_thread_copy_ahead)


def my_dcp_files(directory, rank, owners=None):
    """The files this rank wrote into a DCP checkpoint: those of each of `owners` (the ranks whose files it writes:
    itself by default), and rank 0 the metadata too."""
    prefixes = tuple(f"__{r}_" for r in (owners if owners is not None else (rank,)))
    return [f for f in os.listdir(directory) if f.startswith(prefixes) or (rank == 0 and f == ".metadata")]


class PlainSave:
    """dcp.save as training calls it: DCP's own planner and FileSystemWriter; the process's files are its rank's."""

    def __init__(self, args, rank):
        self.args, self.rank = args, rank

    def writer_and_planner(self, directory):
        return dcp_writer(self.args, directory), None

    def files(self, directory):
        return my_dcp_files(directory, self.rank)

    def prefix_of(self, process):
        """The prefix of the files `process` writes."""
        return f"__{process}_"


class JobSave:
    """dcp.save of the job ranks a process plays (prism_dcp_job): each job rank's pieces into its own files, and a
    .metadata that describes the whole job."""

    def __init__(self, args, rank, job, pieces, written_ranks):
        self.args, self.rank, self.job, self.pieces, self.written_ranks = args, rank, job, pieces, list(written_ranks)
        self.job_ranks = sorted({p.job_rank for p in pieces})

    def writer_and_planner(self, directory):
        import prism_dcp_job as jobs
        planner = jobs.JobSavePlanner(self.job, self.pieces, self.written_ranks, whole_job=flag(self.args.job_metadata))
        a = self.args
        writer = jobs.JobWriter(directory, planner, single_file_per_rank=flag(a.single_file_per_rank),
                                sync_files=flag(a.sync_files), thread_count=a.thread_count,
                                per_thread_copy_ahead=a.per_thread_copy_ahead)
        return writer, planner

    def files(self, directory):
        return my_dcp_files(directory, self.rank, self.job_ranks)

    def prefix_of(self, process):
        """The prefix of the files of the job rank `process` plays, if it was written (else only .metadata is checked)."""
        played = self.args.first_rank + process
        return f"__{played}_" if played in self.written_ranks else None


VISIBLE_WITHIN_S = 300  # how long a rank waits for another node's checkpoint to show before failing the run


def visibility_peer(rank, world):
    """The rank whose files this rank checks for visibility: the same local rank on the next node, or the next rank
    when every rank is on one node. Returns (peer, whether it is on another node)."""
    local = int(os.environ.get("LOCAL_WORLD_SIZE", world))
    if local < world:
        return (rank + local) % world, True
    return (rank + 1) % world, False


def wait_until_visible(directory, prefix, start):
    """Nanoseconds from `start` until the checkpoint's .metadata opens here and the last by name of the files `prefix`… reads
    to its end: what a rank on another node can do once the checkpoint is visible to it."""
    deadline = time.monotonic() + VISIBLE_WITHIN_S
    while True:
        try:
            with open(os.path.join(directory, ".metadata"), "rb") as f:
                f.read(1)
            if prefix:
                names = sorted(n for n in os.listdir(directory) if n.startswith(prefix))
                if not names:
                    raise FileNotFoundError(f"{directory}/{prefix}*")
                with open(os.path.join(directory, names[-1]), "rb") as f:
                    size = os.fstat(f.fileno()).st_size
                    f.seek(max(0, size - 4096))
                    f.read()
            return time.perf_counter_ns() - start
        except FileNotFoundError:
            if time.monotonic() > deadline:
                raise ValidationError(f"{directory}: the checkpoint was durable, but its .metadata or {prefix}* did not"
                                      f" show on {socket.gethostname()} within {VISIBLE_WITHIN_S} s")
            time.sleep(0.001)


class Stager:
    """async_mode=staged: DCP's DefaultStager copying to CPU on a background stream (pinned memory), which needs CUDA;
    closed after the last save, as DCP asks of a stager it did not make."""

    def __init__(self, device):
        from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
        if device.type != "cuda":
            raise ValueError("async_mode=staged stages on a CUDA stream into pinned memory (DCP's DefaultStager);"
                             " this rank has no GPU: use async_mode=thread or process")
        self.stager = DefaultStager(StagingOptions(use_pinned_memory=True, use_shared_memory=False,
                                                   use_async_staging=True, use_non_blocking_copy=True))

    def close(self):
        self.stager.close()


def dcp_save_cycles(args, rec, rank, world, state, root, timed, how=None, device=None, keep=None):
    """saves=N DCP checkpoints of `state` into root/step-1…N, each one whole before the next starts; the one before
    is removed (untimed) once the next is complete, as training keeps its latest, unless `keep` is a list, which
    gets every directory and keeps them. Returns the last directory.
    `how` gives each save's writer and planner and says which files are the process's (PlainSave by default).

    Every save is timed on four clocks from the same start, one after the barrier every rank passes: **blocked**
    (until the call returns and training may go on), **staged** (until the state's copy is whole), **durable** (until
    the writer has written and, with sync_files, fsync'd every file and rank 0 the .metadata) and **visible** (until
    this rank opens the .metadata and reads to its end a file (the last by name) of a rank on another node, or of the next rank
    when all are on one node: the note visible_from says which). A synchronous dcp.save blocks until durable, so
    its first three clocks are one (also recorded as **save**); async_save with async_mode=thread or process
    returns once staged; async_mode=staged returns before staging ends. The timed phase is the save for dcp.save,
    the durable window for async_save."""
    import shutil
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType
    how = how or PlainSave(args, rank)
    mode = args.async_mode if flag(args.async_save) else "sync"
    group = dist.new_group(backend="gloo") if mode != "sync" else None
    stager = Stager(device or torch.device("cpu")) if mode == "staged" else None
    peer, elsewhere = visibility_peer(rank, world)
    rec.notes["visible_from"] = "another node" if elsewhere else "this node (every rank is on one)"
    rec.notes["save_mode"] = "dcp.save" if mode == "sync" else f"dcp.async_save, {mode}"
    previous = None
    try:
        for i in range(1, args.saves + 1):
            directory = os.path.join(root, f"step-{i}")
            writer, planner = how.writer_and_planner(directory)
            dist.barrier()
            before = resident_bytes()
            with rec.window(timed):
                start = time.perf_counter_ns()
                if mode == "sync":
                    dcp.save(state, storage_writer=writer, planner=planner)
                    blocked = staged = durable = time.perf_counter_ns() - start
                else:
                    kind = AsyncCheckpointerType.PROCESS if mode == "process" else AsyncCheckpointerType.THREAD
                    response = dcp.async_save(state, storage_writer=writer, planner=planner, process_group=group,
                                              async_checkpointer_type=kind,
                                              **({"async_stager": stager.stager} if stager else {}))
                    blocked = time.perf_counter_ns() - start
                    staging = resident_bytes() - before
                    if hasattr(response, "staging_completion"):
                        response.staging_completion.result()
                        staged = time.perf_counter_ns() - start
                        response.upload_completion.result()
                    else:
                        staged = blocked
                        response.result()
                    durable = time.perf_counter_ns() - start
            rec.record("blocked", blocked)
            rec.record("staged", staged)
            rec.record("durable", durable)
            if mode == "sync":
                rec.record("save", durable)
                phase = "save"
            else:
                rec.counters["staging_memory_bytes"] = max(rec.counters.get("staging_memory_bytes", 0), staging)
                phase = "durable"
            if timed:
                rec.timed_phase_ns += durable
            rec.record("visible", wait_until_visible(directory, how.prefix_of(peer), start))
            with rec.time("barrier_after_io"):
                dist.barrier()
            mine = how.files(directory)
            written = sum(os.path.getsize(os.path.join(directory, f)) for f in mine)
            rec.add_bytes(phase, written)
            rec.counters["checkpoint_files"] = len(mine)
            record_slowest(rec, phase, durable, written, world, lowest_rate=keep is not None)
            if rank == 0:
                if not os.path.exists(os.path.join(directory, ".metadata")):
                    raise ValidationError(f"{directory}: no .metadata after dcp.save: the checkpoint is incomplete")
                rec.counters["metadata_bytes"] = os.path.getsize(os.path.join(directory, ".metadata"))
            if keep is not None:
                keep.append(directory)
            elif previous is not None and rank == 0:
                shutil.rmtree(previous)
            previous = directory
    finally:
        if stager:
            stager.close()
    return previous


def dcp_load_cycles(args, rec, rank, world, directory, prepare, load_into, verify, planner=None):
    """loads=N loads of one DCP checkpoint into the state `prepare` returns (scrambled, so that only a load that
    works passes `verify`); with drop_cache every rank drops the checkpoint from its node's page cache before each,
    and its resident pages are counted (mincore) just before the clock starts. `planner` makes a load planner for
    each load (DCP's own by default)."""
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import FileSystemReader
    for _ in range(args.loads):
        cold_before_load(args, rec, [directory])
        target = prepare()
        dist.barrier()
        with LoadObservers(rec), rec.time("load", timed_phase=True) as timer:
            try:
                dcp.load(target, storage_reader=FileSystemReader(directory), planner=planner() if planner else None)
            except BaseException as e:  # DCP's CheckpointException derives from BaseException
                raise RuntimeError(f"dcp.load from {directory} failed: {diagnose_dcp(directory, e)}") from e
            load_into(target)
        loaded = sum(t.numel() * t.element_size() for _, t in flat_tensors(target) if not hasattr(t, "full_tensor"))
        loaded = loaded or dir_bytes(directory) // world
        rec.add_bytes("load", loaded)
        verify()
        record_slowest(rec, "load", timer.nanos, loaded, world)


def metadata_reads(args, rec, rank, directory):
    """The .metadata read as a restart reads it, two ways, each timed on every rank: every rank unpickling the file
    itself (metadata_read), and rank 0 reading it and broadcasting it (metadata_broadcast). With drop_cache the file
    leaves the page cache before each."""
    from torch.distributed.checkpoint import FileSystemReader
    path = os.path.join(directory, ".metadata")
    for name in ("metadata_read", "metadata_broadcast"):
        if flag(args.drop_cache):
            dist.barrier()
            drop_from_page_cache([path])
        dist.barrier()
        with rec.time(name):
            if name == "metadata_read" or rank == 0:
                metadata = FileSystemReader(directory).read_metadata()
            if name == "metadata_broadcast":
                box = [metadata if rank == 0 else None]
                dist.broadcast_object_list(box, src=0)
                metadata = box[0]
        rec.add_bytes(name, os.path.getsize(path))
    rec.counters["metadata_chunks"] = sum(len(getattr(md, "chunks", ())) for md in metadata.state_dict_metadata.values())


# ---- presets: one rank's shard of a frontier model's training state ----

def preset_layout(args, world):
    import prism_shards as shards
    dp = args.dp or max(1, world // (args.tp * args.pp))
    layout = shards.Layout(args.tp, args.pp, dp)
    shards.check(args.model, layout)
    if args.first_rank + world > layout.world:
        raise ValueError(f"ranks {args.first_rank}-{args.first_rank + world - 1} are not all ranks of a"
                         f" {layout.world}-rank job ({layout.describe()})")
    return layout


def preset_checkpoint(args, rec, rank, world, device):
    """A frontier model's checkpoint as the ranks of its real job write it: each process plays a job rank and holds
    only that rank's pieces (prism_shards), then saves and loads them through DCP as part of the job's checkpoint
    (fsdp_*, prism_dcp_job) or, the way MLPerf Storage does, through torch.save per model-parallel shard (ddp_*)."""
    import prism_shards as shards
    layout = preset_layout(args, world)
    last = args.first_rank + world - 1
    rec.notes.update({"job_world_size": str(layout.world), "job_layout": layout.describe(),
                      "job_ranks": f"{args.first_rank}-{last}",
                      "emulates": f"ranks {args.first_rank}-{last} of {layout.world}, {args.model.replace('_', '-')}"
                                  f" {layout.describe()}", "precision": args.precision})
    if rank == 0:
        rec.counters["model_parameters"] = shards.parameters(args.model)
    root = os.path.join(args.shared_dir, "checkpoint")
    os.makedirs(root, exist_ok=True)
    if args.benchmark in ("ddp_save", "ddp_load"):
        return preset_torch_save(args, rec, rank, world, layout, root, device)
    return preset_dcp(args, rec, rank, world, layout, root, device)


def restore_layout(args, saved):
    """The layout fsdp_load restores into: the saved one, or restore_tp/pp/dp where given."""
    import prism_shards as shards
    if not (args.restore_tp or args.restore_pp or args.restore_dp):
        return saved
    layout = shards.Layout(args.restore_tp or saved.tp, args.restore_pp or saved.pp, args.restore_dp or saved.dp)
    shards.check(args.model, layout)
    return layout


def preset_dcp(args, rec, rank, world, layout, root, device):
    """fsdp_save: the processes play job ranks first_rank… and save their pieces, timed. fsdp_load: the processes play
    job ranks first_rank… of the layout restored into; the save (untimed) writes the job ranks whose pieces those
    loads read, each process some of them; then each process times the .metadata read both ways and loads its pieces,
    resharded where the layouts differ, and checks every element."""
    import prism_dcp_job as jobs
    import prism_shards as shards
    saved = jobs.Job(args.model, layout, args.precision, args.optimizer)
    if args.benchmark == "fsdp_load" and args.procedure == "mlperf":
        return mlperf_checkpointing(args, rec, rank, world, saved, root, device)
    if args.benchmark == "fsdp_save":
        pieces = saved.pieces(args.first_rank + rank)
        written = range(args.first_rank, args.first_rank + world)
        loads = None
    else:
        restored = jobs.Job(args.model, restore_layout(args, layout), args.precision, args.optimizer)
        if args.first_rank + world > restored.layout.world:
            raise ValueError(f"ranks {args.first_rank}-{args.first_rank + world - 1} are not all ranks of the"
                             f" {restored.layout.world}-rank job it restores into ({restored.layout.describe()})")
        every = [restored.pieces(args.first_rank + r, holding=True) for r in range(world)]
        need = jobs.needed(saved, [p for ps in every for p in ps])
        plays = {args.first_rank + r: r for r in range(world)}
        pieces = jobs.share(need, world, rank, plays)
        written, loads = sorted(need), every[rank]
        rec.notes["restores_into"] = restored.describe()
        rec.notes["saved_ranks"] = compact_ranks(written)
    with rec.time("build_shard"):
        state = jobs.materialize(pieces, device)
        synchronize(device)
    rec.counters["shard_bytes"] = shards.state_bytes([p.entry for p in (loads or pieces)])
    rec.counters["shard_tensors"] = len(loads or pieces)
    how = JobSave(args, rank, saved, pieces, written)
    directory = dcp_save_cycles(args, rec, rank, world, state, root, timed=loads is None, how=how, device=device)
    if loads is not None:
        del state
        metadata_reads(args, rec, rank, directory)
        with rec.time("build_shard"):
            target = jobs.materialize(loads, device)
            synchronize(device)

        def scrambled():
            jobs.scramble(target)
            return target

        def verify():
            try:
                for p in loads:
                    jobs.verify(target[p.local_key], p.entry, directory)
            except ValueError as e:
                raise ValidationError(str(e)) from None

        dcp_load_cycles(args, rec, rank, world, directory, scrambled, lambda t: synchronize(device), verify,
                        planner=lambda: jobs.JobLoadPlanner(loads, written))
    dist.barrier()
    return {}


MLPERF_READ_WITHIN_S = 30


def mlperf_checkpointing(args, rec, rank, world, saved, root, device):
    """procedure=mlperf, MLPerf Storage v3's checkpointing: the processes play job ranks first_rank… and write saves=N
    checkpoints with dcp.save and fsync, each kept (the write phase, timed as save with its four clocks); every rank
    then drops every checkpoint from its node's page cache and counts what stayed (mincore), and the read phase loads
    each checkpoint once, in the order written, every element checked (timed as load). MLPerf's figures sit beside
    PRISM's: per checkpoint, the slowest rank's time (save_slowest, load_slowest) and the lowest rank's rate
    (save_lowest_rate, load_lowest_rate), and their means over the checkpoints in the notes mlperf_write and
    mlperf_read. The read phase must start within 30 s of the write phase's end (MLPerf's rule 4.7.1): the gap is
    timed on every rank (write_to_read_gap) and a longer one fails the run once every read is recorded."""
    import prism_dcp_job as jobs
    import prism_shards as shards
    played = range(args.first_rank, args.first_rank + world)
    pieces = saved.pieces(args.first_rank + rank)
    with rec.time("build_shard"):
        state = jobs.materialize(pieces, device)
        synchronize(device)
    loaded = rec.counters["shard_bytes"] = shards.state_bytes([p.entry for p in pieces])
    rec.counters["shard_tensors"] = len(pieces)
    written = []
    dcp_save_cycles(args, rec, rank, world, state, root, timed=True, how=JobSave(args, rank, saved, pieces, played),
                    device=device, keep=written)
    dist.barrier()
    write_end = time.perf_counter_ns()
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import FileSystemReader
    # every rank drops every checkpoint: each node's page cache, not one node's (mlcommons/storage#464)
    with rec.time("drop_cache"):
        rec.counters["files_dropped"] = drop_from_page_cache(written)
    resident_before_load(rec, written)
    gap = None
    for directory in written:
        jobs.scramble(state)
        dist.barrier()
        if gap is None:
            gap = time.perf_counter_ns() - write_end
            rec.record("write_to_read_gap", gap)
        with LoadObservers(rec), rec.time("load", timed_phase=True) as timer:
            try:
                dcp.load(state, storage_reader=FileSystemReader(directory),
                         planner=jobs.JobLoadPlanner(pieces, played))
            except BaseException as e:  # DCP's CheckpointException derives from BaseException
                raise RuntimeError(f"dcp.load from {directory} failed: {diagnose_dcp(directory, e)}") from e
            synchronize(device)
        rec.add_bytes("load", loaded)
        try:
            for p in pieces:
                jobs.verify(state[p.local_key], p.entry, directory)
        except ValueError as e:
            raise ValidationError(str(e)) from None
        record_slowest(rec, "load", timer.nanos, loaded, world, lowest_rate=True)
    if rank == 0:
        for phase, label in (("save", "mlperf_write"), ("load", "mlperf_read")):
            slowest = rec.phases[phase + "_slowest"]
            rates = [b / (n / 1e9) for n, b in rec.lowest_rates[phase]]
            rec.notes[label] = (f"{len(slowest)} checkpoint(s): duration {sum(slowest) / len(slowest) / 1e9:.2f} s"
                                f" (the slowest rank's, mean), throughput {sum(rates) / len(rates) / 2**30:.3f} GiB/s"
                                f" (the lowest rank's, mean)")
        rec.notes["mlperf_run"] = (f"ranks {played.start}-{played.stop - 1} of {saved.layout.world}"
                                   + (" (a subset run)" if world < saved.layout.world else " (the whole job)"))
    slowest_gap = [0] * world
    dist.all_gather_object(slowest_gap, gap)
    with rec.time("barrier_after_io"):
        dist.barrier()
    if max(slowest_gap) > MLPERF_READ_WITHIN_S * 1e9:
        raise ValidationError(f"the read phase began {max(slowest_gap) / 1e9:.1f} s after the write phase ended;"
                              f" MLPerf Storage v3 allows {MLPERF_READ_WITHIN_S} s (rule 4.7.1)")
    return {}


def compact_ranks(ranks):
    """[0, 1, 2, 5] as "0-2,5"."""
    out, ranks = [], sorted(ranks)
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        out.append(str(ranks[i]) if i == j else f"{ranks[i]}-{ranks[j]}")
        i = j + 1
    return ",".join(out)


def preset_torch_save(args, rec, rank, world, layout, root, device):
    """torch.save per model-parallel shard: each data-parallel replica holds its whole model-parallel shard, and of
    the ranks run the first with each (pp, tp) coordinate writes it, with fsync; under ddp_load every rank then loads
    its shard (mmap or read) into its tensors."""
    import prism_dcp_job as jobs
    import prism_shards as shards
    emulated = range(args.first_rank, args.first_rank + world)
    t, _, p = layout.coordinates(args.first_rank + rank)
    model_parallel = shards.Layout(layout.tp, layout.pp, 1)
    entries = shards.state_entries(args.model, model_parallel, p * layout.tp + t, args.precision, args.optimizer,
                                   scalars_once=False)
    with rec.time("build_shard"):
        state = {}
        for e in entries:
            state[e.key] = torch.empty(e.sizes, dtype=getattr(torch, e.dtype), device=device)
            jobs.fill(state[e.key], e)
        synchronize(device)
    rec.counters["shard_bytes"] = shards.state_bytes(entries)
    rec.counters["shard_tensors"] = len(entries)
    writer = next(r for r in emulated if layout.coordinates(r)[0] == t and layout.coordinates(r)[2] == p)
    path = os.path.join(root, f"model-pp{p}-tp{t}.pt")
    writes = writer == args.first_rank + rank
    for _ in range(args.saves):
        dist.barrier()
        nanos = None
        if writes:
            with rec.time("save", timed_phase=args.benchmark == "ddp_save") as timer:
                write_durably(path, "wb", lambda f: torch.save(state, f))
            nanos = timer.nanos
            rec.add_bytes("save", os.path.getsize(path))
            rec.counters["checkpoint_files"] = 1
        with rec.time("barrier_after_io"):
            dist.barrier()
        record_slowest(rec, "save", nanos, os.path.getsize(path) if writes else 0, world)
    if args.benchmark == "ddp_save":
        return {}
    # the replicas among the ranks run: every (pp, tp) coordinate's processes, one group each (every process makes
    # every group, in one order, as torch.distributed asks); the writer of the coordinate is its reader
    broadcast = flag(args.replica_broadcast)
    group = None
    if broadcast:
        coordinates = [layout.coordinates(r) for r in emulated]
        for key in sorted({(c[2], c[0]) for c in coordinates}):
            members = [i for i, c in enumerate(coordinates) if (c[2], c[0]) == key]
            g = dist.new_group(members) if len(members) > 1 else None
            if key == (p, t):
                group, reader = g, members[0]
        rec.notes["replica_reads"] = "one replica reads, broadcasts to the others" if group else "one replica (no other run)"
    else:
        rec.notes["replica_reads"] = "every replica reads"
    reads = not broadcast or rank == reader
    for _ in range(args.loads):
        cold_before_load(args, rec, [path])
        jobs.scramble(state)
        dist.barrier()
        with LoadObservers(rec), rec.time("load", timed_phase=True) as timer:
            if reads:
                loaded = torch.load(path, map_location=device, weights_only=True, mmap=flag(args.mmap))
                with torch.no_grad():
                    for key, value in state.items():
                        value.copy_(loaded[key])
                del loaded
            if group is not None:
                for key in sorted(state):
                    dist.broadcast(state[key], src=reader, group=group)
            synchronize(device)
        rec.add_bytes("load", os.path.getsize(path))
        try:
            for e in entries:
                jobs.verify(state[e.key], e, path)
        except ValueError as e:
            raise ValidationError(str(e)) from None
        record_slowest(rec, "load", timer.nanos, os.path.getsize(path), world)
    dist.barrier()
    return {}


def hf_load(args, rec, rank, world, device):
    """Every rank loads one Hugging Face model from the target with from_pretrained, as from a shared model cache.

    Rank 0 first saves it there with save_pretrained (safetensors shards and config.json), untimed for the
    benchmark; then the load and the first forward pass are timed apart."""
    if args.model == "synthetic":
        raise ValueError("hf_load loads a Hugging Face architecture: model must be gpt2, llama or bert")
    import transformers
    loader = transformers.AutoModel if args.model == "bert" else transformers.AutoModelForCausalLM
    model_dir = os.path.join(args.shared_dir, "hf-model")
    warm_up_dir = os.path.join(args.shared_dir, "hf-warm-up")
    sums = os.path.join(args.shared_dir, "checksums.json")
    if rank == 0:
        with rec.time("build_model"):
            model = build_model(args)
        rec.counters["model_parameters"] = sum(p.numel() for p in model.parameters())
        with rec.time("save_pretrained"):
            model.save_pretrained(model_dir, max_shard_size=args.shard_size)
        save_checksums(sums, all=checksum(model.state_dict()), all_digests=digests(model.state_dict()))
        del model
        hf_model(args.model, 1_000, 1).save_pretrained(warm_up_dir)
    dist.barrier()
    # the one-time costs (importing the architecture's modules, the loader's and the forward pass's first
    # calls) are paid on a tiny model of the same family before any clock starts, in every rank
    with torch.no_grad():
        loader.from_pretrained(warm_up_dir, local_files_only=True).to(device).eval()(model_input(args, 1, device))
    weights = sorted(os.path.join(model_dir, f) for f in os.listdir(model_dir) if f.endswith(".safetensors"))
    if not weights:
        raise ValidationError(f"{model_dir} holds no .safetensors file after save_pretrained")
    if flag(args.drop_cache):
        with rec.time("drop_cache"):
            rec.counters["files_dropped"] = drop_from_page_cache([model_dir])
    resident, pages = Residency().pages(weights)
    rec.counters["resident_pages_before_load"] = resident
    rec.counters["pages_before_load"] = pages
    dist.barrier()
    # mmap: safetensors maps each file and tensors fault their pages in (from_pretrained's default); else each file
    # is read into memory first
    with LoadObservers(rec), rec.time("load", timed_phase=True):
        model = loader.from_pretrained(model_dir, local_files_only=True, disable_mmap=not flag(args.mmap))
    rec.bytes["load"] = dir_bytes(model_dir)
    rec.counters["model_files"] = len(weights)
    if device.type == "cuda":
        with rec.time("to_device"):
            model.to(device)
            synchronize(device)
    model.eval()
    inputs = model_input(args, args.batch, device)
    with rec.time("first_forward"):
        with torch.no_grad():
            model(inputs)
        synchronize(device)
    saved = load_checksums(sums)
    got = verify_checksum(model.state_dict(), saved["all"], model_dir, "from_pretrained", saved["all_digests"])
    with rec.time("barrier_after_io"):
        dist.barrier()
    return {"checksum": got}


class FileSamples(torch.utils.data.Dataset):
    """One sample per file: reading it (open, read to the end, close) is the sample's timed operation. Each file is
    opened beneath the dataset's directory (its directory found before the clock), never through a link."""

    def __init__(self, root, files):
        self.files, self.beneath = files, prism_formats().Beneath(root)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        dir_fd, name = self.beneath.place(self.files[index])
        start = time.perf_counter_ns()
        with open(os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd), "rb", buffering=0) as f:
            data = f.read()
        nanos = time.perf_counter_ns() - start
        return index, torch.frombuffer(bytearray(data), dtype=torch.uint8), nanos


class WarmUpSamples(torch.utils.data.Dataset):
    """Samples made in memory, shaped as FileSamples' are: what a worker runs for one, without a file."""

    def __init__(self, count):
        self.count = count

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        return index, torch.frombuffer(bytearray(1), dtype=torch.uint8), 0


def warm_up_workers(batch_size, num_workers, device):
    """Runs the loader's code once before the clock, on samples made in memory: each worker's start (its imports,
    numpy's seeding, the pages of torch's libraries it touches) and the main process's first iteration. On a node
    whose page cache has lost them, those pages came from storage inside the first epoch and counted in its
    storage_read_bytes (1.6 times the samples' bytes after dropping every cache: libtorch_cpu.so and numpy.random's
    modules, faulted in by the workers)."""
    loader = torch.utils.data.DataLoader(WarmUpSamples(max(1, num_workers) * batch_size), batch_size=batch_size,
                                         num_workers=num_workers, collate_fn=collate_files,
                                         pin_memory=device.type == "cuda")
    for _ in loader:
        pass


def collate_files(samples):
    """Keeps a batch's samples apart (files differ in size): indices, tensors and read times."""
    return [s[0] for s in samples], [s[1] for s in samples], [s[2] for s in samples]


def dataset_files(root):
    """(relative path, size) of every file of a dataset: its manifest's list where it has one, else a walk. A manifest
    with a key it does not know, or an entry that is not a regular file plainly beneath the dataset (absolute, '..',
    a link), is refused naming it, before any file is read."""
    manifest = os.path.join(root, "manifest.json")
    if os.path.lexists(manifest):
        with open(os.open(manifest, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)) as f:
            m = json.load(f)
        unknown = sorted(set(m) - {"schema", "seed", "blockSize", "files"})
        unknown += [f"{e.get('path')}: {k}" for e in m.get("files", []) for k in sorted(set(e) - {"path", "size", "md5"})]
        if unknown:
            raise ValidationError(f"{manifest}: unknown key {unknown[0]}")
        beneath = prism_formats().Beneath(root)
        try:
            for e in m.get("files", []):
                beneath.require_regular(e.get("path"))
        except prism_formats().DatasetError as e:
            raise ValidationError(str(e)) from None
        finally:
            beneath.close()
        return [(e["path"], int(e["size"])) for e in m.get("files", [])]
    files = []
    for d, _, names in os.walk(root):
        for name in names:
            path = os.path.join(d, name)
            files.append((os.path.relpath(path, root), os.path.getsize(path)))
    return sorted(files)


def generate_dataset(root, files, size, layout, shards):
    """files × size bytes of seeded random content, flat or spread over shard directories, with a manifest."""
    rng = random.Random(42)
    entries = []
    for i in range(files):
        rel = f"file-{i:07d}.bin" if layout == "flat" else f"shard-{i % shards:05d}/file-{i:07d}.bin"
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = rng.randbytes(size)
        with open(path, "wb") as f:
            f.write(data)
        entries.append({"path": rel, "size": size, "md5": hashlib.md5(data).hexdigest()})
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump({"schema": "prism.dataset/1", "seed": 42, "files": entries}, f)


def timed_batches(rec, batches, device):
    """Each batch the loader hands over, the training loop's wait for it recorded as `batch` (on a GPU, until its
    tensors are on the device): the batch is (indices, tensors, …)"""
    while True:
        asked = time.perf_counter_ns()
        try:
            batch = next(batches)
        except StopIteration:
            return
        if device.type == "cuda":
            batch = (batch[0], [t.to(device, non_blocking=True) for t in batch[1]]) + tuple(batch[2:])
            synchronize(device)
        rec.record("batch", time.perf_counter_ns() - asked)
        yield batch


def before_epoch(args, rec, residency, paths, kept):
    """With drop_cache every rank drops `paths` from its node's page cache once every rank has finished the last
    epoch's reads (with shuffling another rank's last share overlaps this one, and its reads would bring back pages
    dropped here: 144 of them once, under a CPU hog); then what stayed cached is counted, and the ranks start
    together. A kept dataset is only read, never synced."""
    if flag(args.drop_cache):
        dist.barrier()
        with rec.time("drop_cache"):
            rec.count("files_dropped", drop_from_page_cache(paths, sync=not kept))
    resident, pages = residency.pages(paths)
    rec.count("resident_pages_before_read", resident)
    rec.count("pages_before_read", pages)
    dist.barrier()


def dataloader(args, rec, rank, world, device):
    """Every rank reads its DistributedSampler share of a dataset's files through a torch DataLoader (a dataset in a
    training format: format_dataloader)."""
    if args.format != "files":  # a kept dataset's manifest set its format in Java (Dataloader.checked)
        return format_dataloader(args, rec, rank, world, device)
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler
    kept = bool(args.dataset)
    root = args.dataset if kept else os.path.join(args.shared_dir, "dataset")
    if not kept:
        if rank == 0:
            with rec.time("generate_dataset"):
                generate_dataset(root, args.files, args.file_size, args.layout, args.shards)
        dist.barrier()
    files = dataset_files(root)
    if not files:
        raise ValidationError(f"{root} holds no files to load")
    paths = [os.path.join(root, rel) for rel, _ in files]
    sizes = [size for _, size in files]
    rec.notes["dataset"] = f"{len(files)} files, {sum(sizes)} bytes in {root}" + (" (kept)" if kept else "")
    shuffle = flag(args.shuffle)
    rels = [rel for rel, _ in files]
    sampler = DistributedSampler(FileSamples(root, rels), num_replicas=world, rank=rank, shuffle=shuffle, seed=1234)
    loader = DataLoader(FileSamples(root, rels), batch_size=args.batch_size, sampler=sampler, num_workers=args.num_workers,
                        collate_fn=collate_files, pin_memory=device.type == "cuda")
    warm_up_workers(args.batch_size, args.num_workers, device)
    residency = Residency()
    seen = set()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        share = [paths[i] for i in sorted(set(sampler))]  # this epoch's files of this rank, each once
        before_epoch(args, rec, residency, share, kept)
        io_before = storage_read_bytes()
        epoch_window = rec.window().__enter__()
        epoch_start = time.perf_counter_ns()
        batches = iter(loader)  # starts this epoch's workers: part of the epoch, not of a batch
        rec.record("start_workers", time.perf_counter_ns() - epoch_start)
        read = 0
        for indices, tensors, nanos in timed_batches(rec, batches, device):
            for index, tensor, sample_nanos in zip(indices, tensors, nanos):
                if tensor.numel() != sizes[index]:
                    raise ValidationError(f"{paths[index]}: read {tensor.numel()} bytes, the dataset says {sizes[index]}")
                rec.record("sample", sample_nanos)
                read += sizes[index]
                seen.add(index)
            rec.count("samples", len(indices))
        del batches  # its workers have ended and been reaped, so their reads count in /proc/self/io
        epoch_nanos = time.perf_counter_ns() - epoch_start
        epoch_window.__exit__(None, None, None)
        rec.record("epoch", epoch_nanos)
        rec.timed_phase_ns += epoch_nanos
        io_after = storage_read_bytes()
        if io_before >= 0 and io_after >= 0:
            rec.count("storage_read_bytes", io_after - io_before)
        rec.bytes["sample"] = rec.bytes.get("sample", 0) + read
        rec.bytes["epoch"] = rec.bytes["sample"]
        if rec.counters["samples"] != len(sampler) * (epoch + 1):
            raise ValidationError(f"rank {rank} read {rec.counters['samples']} samples in {epoch + 1} epochs,"
                                  f" its DistributedSampler share is {len(sampler)} per epoch")
    for phase in ("sample", "batch"):
        rec.elapsed[phase] = rec.timed_phase_ns
    everyone = [None] * world
    dist.all_gather_object(everyone, sorted(seen))
    missed = len(files) - len(set().union(*map(set, everyone)))
    if missed:
        raise ValidationError(f"the ranks together read {len(files) - missed} of the {len(files)} files of {root}")
    dist.barrier()
    return {}


def prism_formats():
    """prism_formats.py, beside this script"""
    import prism_formats as formats
    return formats


class FormatSamples(torch.utils.data.IterableDataset):
    """A rank's units of one epoch (row groups, tar shards or single samples) read as the format is read; each worker
    takes every num_workers-th unit. Items: (index, tensor, read nanoseconds, failure, syscalls=python's calls)."""

    def __init__(self, root, manifest, checks, units, args, seed, opened):
        self.root, self.manifest, self.checks, self.units, self.seed = root, manifest, checks, units, seed
        self.opened = opened
        self.mmap, self.shuffle, self.shuffle_buffer = flag(args.mmap), flag(args.shuffle), args.shuffle_buffer

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        units, seed = self.units, self.seed
        if info is not None:
            units, seed = units[info.id::info.num_workers], seed * 1009 + info.id
            if INTERPOSER is not None:
                INTERPOSER.take()  # the fork copied the rank's own calls: the worker reports only its own
        for index, data, nanos, failure, calls in prism_formats().sample_stream(
                self.root, self.manifest, units, self.checks, self.mmap, self.shuffle, self.shuffle_buffer, seed,
                INTERPOSER, self.opened):
            yield index, torch.frombuffer(bytearray(data), dtype=torch.uint8), nanos, failure, calls


class DataReadError(Exception):
    """A read of the dataset failed in a worker: the call, the file and the errno, as the worker saw them."""


def collate_format(samples):
    return tuple(list(field) for field in zip(*samples))


def faults_with_workers():
    """(minor, major) page faults of this process and of its reaped children, the DataLoader's workers
    (/proc/self/stat fields 10-13)"""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[7]) + int(fields[8]), int(fields[9]) + int(fields[10])
    except (OSError, IndexError, ValueError):
        return -1, -1


def format_dataloader(args, rec, rank, world, device):
    """format_dataloader_unchecked, a dataset that is not what its manifest says failing the run as a validation"""
    try:
        return format_dataloader_unchecked(args, rec, rank, world, device)
    except prism_formats().DatasetError as e:
        raise ValidationError(str(e)) from e


def format_dataloader_unchecked(args, rec, rank, world, device):
    """Every rank reads its share of a dataset in a training format (prism_formats.py) through a torch DataLoader:
    parquet by row group, arrow through datasets, tar shards streamed, indexed by mmap, image folders file by file,
    safetensors by tensor name. Each sample delivered is checked; the ranks together deliver every sample once."""
    from torch.utils.data import DataLoader
    # whatever Hugging Face's datasets caches goes under the run's own directory, never the user's home
    os.environ.setdefault("HF_HOME", os.path.join(args.shared_dir, "hf-home"))
    formats = prism_formats()
    kept = bool(args.dataset)
    root = args.dataset if kept else os.path.join(args.shared_dir, "dataset")
    if not kept:
        if rank == 0:
            with rec.time("generate_dataset"):
                os.mkdir(root)
                formats.create(root, args.format, args.samples, args.sample_size, args.size_jitter, args.shard_size,
                               args.row_group, args.classes)
        dist.barrier()
    manifest = formats.read_manifest(root)
    if kept and args.format not in ("files", manifest["format"]):
        raise ValidationError(f"{root} is a {manifest['format']} dataset, not {args.format}")
    if manifest["format"] == "arrow":
        import datasets  # imported before the clock, as a training script does at its top
        datasets.disable_progress_bars()
    elif manifest["format"] == "parquet":
        import pyarrow.parquet  # noqa: F401
    checks = formats.Checks(root, manifest["samples"])
    files = formats.data_files(root, manifest)
    units = formats.units_of(manifest)
    rec.notes["dataset"] = (f"{manifest['format']}: {manifest['samples']} samples, {manifest['bytes']} bytes in"
                            f" {len(files)} files of {root}" + (" (kept)" if kept else ""))
    rec.notes["format"] = manifest["format"]
    warm_up_workers(args.batch_size, args.num_workers, device)
    residency = Residency()
    seen = []
    for epoch in range(args.epochs):
        share = formats.share_of(units, rank, world, epoch, flag(args.shuffle))
        expected = formats.samples_in(share)
        before_epoch(args, rec, residency, files, kept)
        io_before, faults_before = process_io(), faults_with_workers()
        epoch_window = rec.window().__enter__()
        epoch_start = time.perf_counter_ns()
        # the dataset object a training script builds before its loader (Hugging Face's, Megatron's), which the
        # workers inherit: timed apart, inside the epoch, because building it reads storage (load_from_disk read every
        # byte of the Arrow files here); let go after the epoch, or the rank's mapping would keep its pages cached
        # through the next epoch's drop
        opened = formats.opened_in_rank(root, manifest)
        if opened:
            rec.record("open_dataset", time.perf_counter_ns() - epoch_start)
        loader = DataLoader(FormatSamples(root, manifest, checks, share, args, epoch * world + rank, opened),
                            batch_size=args.batch_size, num_workers=args.num_workers, collate_fn=collate_format,
                            pin_memory=device.type == "cuda")
        workers_start = time.perf_counter_ns()
        batches = iter(loader)
        rec.record("start_workers", time.perf_counter_ns() - workers_start)
        delivered = count = 0
        failed = None
        for indices, tensors, nanos, failures, calls in timed_batches(rec, batches, device):
            for index, tensor, sample_nanos, failure, worker_calls in zip(indices, tensors, nanos, failures, calls):
                if worker_calls and INTERPOSER is not None:
                    INTERPOSER.calls.extend(worker_calls)
                if failure is not None:
                    failed = failed or (failure[0], f"rank {rank}: {failure[1]}")
                    continue
                rec.record("sample", sample_nanos)
                delivered += tensor.numel()
                seen.append(index)
                count += 1
            if failed:
                break  # the other ranks still finish their share: every rank learns of it below, not by a lost peer
        del batches  # its workers have ended and been reaped: their reads and faults count in /proc/self
        del loader, opened
        verdicts = [None] * world
        dist.all_gather_object(verdicts, failed)
        first = next((v for v in verdicts if v), None)
        if first:
            kind, message = first
            raise ValidationError(message) if kind == "corrupt" else DataReadError(message)
        epoch_nanos = time.perf_counter_ns() - epoch_start
        epoch_window.__exit__(None, None, None)
        rec.record("epoch", epoch_nanos)
        rec.timed_phase_ns += epoch_nanos
        rec.count("samples", count)
        io_after, faults_after = process_io(), faults_with_workers()
        if "read_bytes" in io_before and "read_bytes" in io_after:
            rec.count("storage_read_bytes", io_after["read_bytes"] - io_before["read_bytes"])
            # every read-family call of the rank and its workers: the dataset's, and also the pipes the workers hand
            # their batches over and /proc; an upper bound of the dataset's read calls (syscalls=kernel names them)
            rec.count("read_calls_upper_bound", io_after["syscr"] - io_before["syscr"])
        if faults_before[0] >= 0 and faults_after[0] >= 0:
            rec.count("minor_faults", faults_after[0] - faults_before[0])
            rec.count("major_faults", faults_after[1] - faults_before[1])
        rec.bytes["sample"] = rec.bytes.get("sample", 0) + delivered
        rec.bytes["epoch"] = rec.bytes["sample"]
        if count != expected:
            raise ValidationError(f"rank {rank} was handed {count} samples in epoch {epoch + 1}, its share is {expected}")
    for phase in ("sample", "batch"):
        rec.elapsed[phase] = rec.timed_phase_ns
    everyone = [None] * world
    dist.all_gather_object(everyone, seen)
    delivered_all = [i for part in everyone for i in part]
    if len(delivered_all) != manifest["samples"] * args.epochs or len(set(delivered_all)) != manifest["samples"]:
        raise ValidationError(f"the ranks together were handed {len(delivered_all)} samples, {len(set(delivered_all))}"
                              f" of them distinct, in {args.epochs} epoch(s) of the {manifest['samples']} of {root}")
    dist.barrier()
    return {}


if __name__ == "__main__":
    main(sys.argv[1:])

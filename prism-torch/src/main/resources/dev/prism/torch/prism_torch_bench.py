"""PRISM's PyTorch checkpoint benchmarks, run by torchrun: one process per rank.

Executes the real framework code paths (torch.save, torch.load, torch.distributed.checkpoint) and
writes one JSON document per rank (schema prism.torchrank/1) with every phase timed in nanoseconds.
PRISM's Java side launches it with `python -m torch.distributed.run` and reads those documents.
"""
import argparse
import json
import math
import os
import platform
import socket
import sys
import time
import traceback

import torch
import torch.distributed as dist
import torch.nn as nn

BENCHMARKS = ("ddp_save", "ddp_load", "fsdp_save", "fsdp_load", "rl_load")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--benchmark", choices=BENCHMARKS, required=True)
    p.add_argument("--out", required=True, help="directory for the per-rank JSON documents")
    p.add_argument("--checkpoint-dir", required=True, help="directory the checkpoint goes into")
    p.add_argument("--model", default="synthetic", help="synthetic, gpt2, llama or bert")
    p.add_argument("--params", type=int, default=25_000_000, help="parameters, approximately")
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--thread-count", type=int, default=1, help="DCP FileSystemWriter thread_count")
    p.add_argument("--sync-files", default="true", help="DCP FileSystemWriter sync_files")
    p.add_argument("--drop-cache", default="false", help="drop the checkpoint from the page cache before loading")
    p.add_argument("--full-state-dict", default="false", help="fsdp_load: gather the full state dict after loading")
    p.add_argument("--fault", default="none", help="none, truncate_shard (before loading) or crash_rank1")
    return p.parse_args(argv)


def flag(text):
    return str(text).lower() in ("1", "true", "yes", "on")


class Recorder:
    """Phase timings (ns), bytes and counters of this rank, written as prism.torchrank/1."""

    def __init__(self, rank, world):
        self.rank, self.world = rank, world
        self.phases, self.bytes, self.counters = {}, {}, {}
        self.notes = {}
        self.timed_phase_ns = 0

    def time(self, name, timed_phase=False):
        recorder = self

        class Timer:
            def __enter__(self):
                self.start = time.perf_counter_ns()

            def __exit__(self, *exc):
                elapsed = time.perf_counter_ns() - self.start
                recorder.phases.setdefault(name, []).append(elapsed)
                if timed_phase:
                    recorder.timed_phase_ns += elapsed
                return False
        return Timer()

    def write(self, out, status="PASS", failure=None, extra=None):
        doc = {"schema": "prism.torchrank/1", "rank": self.rank, "world": self.world,
               "hostname": socket.gethostname(), "status": status, "failure": failure,
               "phaseNanos": self.timed_phase_ns, "phases": self.phases, "bytes": self.bytes,
               "counters": self.counters, "torch": torch.__version__, "notes": self.notes}
        doc.update(extra or {})
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, f"rank-{self.rank}.json")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


class ValidationError(Exception):
    pass


def synthetic_model(params, layers):
    width = max(8, int(math.sqrt(params / max(1, layers))))
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(width, width), nn.ReLU()]
    model = nn.Sequential(*blocks)
    model.prism_input = lambda batch, device: torch.randn(batch, width, device=device)
    return model


def hf_model(kind, params, layers):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers
    vocab = 8192
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
    model.prism_input = lambda batch, device: torch.randint(0, vocab, (batch, 32), device=device)
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


def train_step(model, inputs, optimizer):
    optimizer.zero_grad()
    out = model(inputs)
    tensor = out if torch.is_tensor(out) else (out.logits if hasattr(out, "logits") else out.last_hidden_state)
    loss = tensor.float().pow(2).mean()
    loss.backward()
    optimizer.step()


def checksum(state_dict):
    total = 0.0
    for value in state_dict.values():
        if torch.is_tensor(value):
            total += value.detach().to("cpu", torch.float64).sum().item()
    return total


def verify_checksum(state_dict, expected, where, after):
    """Raises ValidationError naming the checkpoint when the loaded parameters do not sum to the saved ones."""
    got = checksum(state_dict)
    if not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-6):
        raise ValidationError(f"{where}: parameter checksum {got!r} after {after}, {expected!r} when saved")
    return got


def drop_from_page_cache(path):
    """Drops every file under path from this node's page cache; returns how many files."""
    files = [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs] if os.path.isdir(path) else [path]
    for name in files:
        fd = os.open(name, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return len(files)


def diagnose_dcp(dcp_dir):
    """Names the shard files shorter than the checkpoint's own metadata says they must be."""
    try:
        from torch.distributed.checkpoint import FileSystemReader
        metadata = FileSystemReader(dcp_dir).read_metadata()
        need = {}
        for info in metadata.storage_data.values():
            need[info.relative_path] = max(need.get(info.relative_path, 0), info.offset + info.length)
        bad = []
        for name, size in sorted(need.items()):
            path = os.path.join(dcp_dir, name)
            have = os.path.getsize(path) if os.path.exists(path) else -1
            if have < size:
                bad.append(f"{path} {'is missing' if have < 0 else f'is truncated: holds {have} bytes'}, "
                           f"the checkpoint's metadata needs {size}")
        return "; ".join(bad) if bad else f"every shard in {dcp_dir} has the size its metadata gives"
    except BaseException as e:
        return f"{dcp_dir}/.metadata is unreadable: {e}"


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


def train_between_barriers(rec, model, inputs):
    """One timed training iteration between the paper's first two barriers; returns its optimizer."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with rec.time("barrier_before_train"):
        dist.barrier()
    with rec.time("train"):
        train_step(model, inputs, optimizer)
    with rec.time("barrier_after_train"):
        dist.barrier()
    return optimizer


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
            "device": where, "world_size": str(world)}


def main(argv):
    args = parse_args(argv)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")
    if use_cuda:
        torch.cuda.set_device(device)
    rec = Recorder(rank, world)
    rec.notes.update(what_ran(device, world))
    try:
        dist.init_process_group("nccl" if use_cuda else "gloo")
        rec.notes["backend"] = dist.get_backend()
        extra = run(args, rec, rank, world, device)
        rec.write(args.out, extra=extra)
    except ValidationError as e:
        rec.write(args.out, "FAIL", {"kind": "VALIDATION", "message": str(e), "rank": rank})
    except BaseException as e:
        rec.write(args.out, "FAIL", {"kind": "EXCEPTION", "rank": rank,
                                     "message": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"})
        raise
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()


def run(args, rec, rank, world, device):
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict
    ckpt = args.checkpoint_dir
    os.makedirs(ckpt, exist_ok=True)
    with rec.time("build_model"):
        model = build_model(args).to(device)
    if rank == 0:
        rec.counters["model_parameters"] = sum(p.numel() for p in model.parameters())
    inputs = model.prism_input(args.batch, device)
    full_path = os.path.join(ckpt, "model.pt")
    dcp_dir = os.path.join(ckpt, "dcp")
    bench = args.benchmark

    if args.fault == "crash_rank1" and rank == 1:
        raise RuntimeError("crash_rank1: rank 1 was told to crash")

    if bench in ("ddp_save", "ddp_load"):
        from torch.nn.parallel import DistributedDataParallel as DDP
        # Hugging Face models have parameters the loss may not reach (BERT's pooler): let DDP allow for them
        ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                  find_unused_parameters=args.model != "synthetic")
        optimizer = train_between_barriers(rec, ddp, inputs)
        state = ddp.module.state_dict()
        if rank == 0:
            saved_sum = checksum(state)
            with rec.time("save", timed_phase=(bench == "ddp_save")):
                tmp = full_path + ".tmp"
                with open(tmp, "wb") as f:
                    torch.save(state, f)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, full_path)
            rec.bytes["save"] = os.path.getsize(full_path)
            with open(full_path + ".checksum", "w") as f:
                f.write(repr(saved_sum))
        with rec.time("barrier_after_io"):
            dist.barrier()
        if bench == "ddp_save":
            if rank == 0 and not os.path.getsize(full_path):
                raise ValidationError(f"{full_path} is empty after torch.save")
            return {}
        if flag(args.drop_cache):
            with rec.time("drop_cache"):
                rec.counters["files_dropped"] = drop_from_page_cache(full_path)
            dist.barrier()
        if args.fault == "truncate_shard" and rank == 0:
            os.truncate(full_path, os.path.getsize(full_path) // 2)
        dist.barrier()
        with rec.time("load", timed_phase=True):
            try:
                loaded = torch.load(full_path, map_location=device, weights_only=True)
            except Exception as e:
                raise RuntimeError(f"torch.load({full_path!r}) failed: {e}") from e
            ddp.module.load_state_dict(loaded)
        rec.bytes["load"] = os.path.getsize(full_path)
        expected = float(open(full_path + ".checksum").read())
        got = verify_checksum(ddp.module.state_dict(), expected, full_path, "loading")
        with rec.time("train_after_load"):
            train_step(ddp, inputs, optimizer)
        with rec.time("barrier_after_io"):
            dist.barrier()
        return {"checksum": got}

    # FSDP2 + DCP
    model = shard(model, device.type, world)
    optimizer = train_between_barriers(rec, model, inputs)
    full_before = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    expected = checksum(full_before) if rank == 0 else 0.0
    sharded = get_model_state_dict(model)
    from torch.distributed.checkpoint import FileSystemReader, FileSystemWriter
    writer = FileSystemWriter(dcp_dir, single_file_per_rank=True, sync_files=flag(args.sync_files),
                              thread_count=args.thread_count)
    with rec.time("save", timed_phase=(bench == "fsdp_save")):
        dcp.save(sharded, storage_writer=writer)
    with rec.time("barrier_after_io"):
        dist.barrier()
    rec.bytes["save"] = sum(os.path.getsize(os.path.join(dcp_dir, f)) for f in os.listdir(dcp_dir)
                            if f.startswith(f"__{rank}_"))
    if rank == 0:
        with open(os.path.join(ckpt, "checksum"), "w") as f:
            f.write(repr(expected))
    if bench == "fsdp_save":
        if rank == 0 and not os.path.exists(os.path.join(dcp_dir, ".metadata")):
            raise ValidationError(f"{dcp_dir}: no .metadata after dcp.save: the checkpoint is incomplete")
        return {}
    dist.barrier()
    if flag(args.drop_cache):
        # every rank drops what it may read (DCP reads shards written by other ranks, and on several
        # nodes each node has its own page cache), as ddp_load does
        with rec.time("drop_cache"):
            rec.counters["files_dropped"] = drop_from_page_cache(dcp_dir)
        dist.barrier()
    if args.fault == "truncate_shard" and rank == 0:
        victim = sorted(f for f in os.listdir(dcp_dir) if f.endswith(".distcp"))[-1]
        path = os.path.join(dcp_dir, victim)
        os.truncate(path, os.path.getsize(path) // 2)
    dist.barrier()
    expected = float(open(os.path.join(ckpt, "checksum")).read())
    if bench == "fsdp_load":
        target = get_model_state_dict(model)
        with rec.time("load", timed_phase=True):
            try:
                dcp.load(target, storage_reader=FileSystemReader(dcp_dir))
            except BaseException as e:  # DCP's CheckpointException derives from BaseException
                raise RuntimeError(f"dcp.load from {dcp_dir} failed: {diagnose_dcp(dcp_dir)}") from e
            set_model_state_dict(model, target)
        rec.bytes["load"] = dir_bytes(dcp_dir) // world
        if flag(args.full_state_dict):
            with rec.time("full_state_dict"):
                full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        else:
            full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        if rank == 0:
            verify_checksum(full, expected, dcp_dir, "dcp.load")
        with rec.time("train_after_load"):
            train_step(model, inputs, optimizer)
        with rec.time("barrier_after_io"):
            dist.barrier()
        return {}
    # rl_load: every rank is a reader that needs the whole model from the sharded checkpoint
    reader_model = build_model(args)
    full_target = {k: v.detach().clone() for k, v in reader_model.state_dict().items()}
    with rec.time("consolidate", timed_phase=True):
        try:
            try:
                dcp.load(full_target, storage_reader=FileSystemReader(dcp_dir), no_dist=True)
            except TypeError:
                # torch < 2.5 has no no_dist: consolidate through a single-file copy instead
                from torch.distributed.checkpoint.format_utils import dcp_to_torch_save
                single = os.path.join(ckpt, f"consolidated-{rank}.pt")
                dcp_to_torch_save(dcp_dir, single)
                full_target = torch.load(single, weights_only=True)
        except BaseException as e:  # DCP's CheckpointException derives from BaseException
            raise RuntimeError(f"consolidating {dcp_dir} failed: {diagnose_dcp(dcp_dir)}") from e
    rec.bytes["consolidate"] = dir_bytes(dcp_dir)
    got = verify_checksum(full_target, expected, dcp_dir, "consolidation")
    with rec.time("barrier_after_io"):
        dist.barrier()
    return {"checksum": got}


if __name__ == "__main__":
    main(sys.argv[1:])

"""A training job's DCP checkpoint, written and read by a few processes that play some of its ranks.

The job's state dict is {"model": weights, "optim": optimizer state}, every tensor laid out over the job's ranks
(prism_shards). A process plays one or more job ranks: it holds their pieces, writes each job rank's pieces into that
rank's own files (`__<job rank>_0.distcp`, as the job's rank would), and tells DCP where each piece sits in the full
tensor, so that the `.metadata` rank 0 writes describes the whole job. Pieces of job ranks nobody plays are entered
in the metadata too, with the place in their rank's file the written ranks' files give them, so the `.metadata` has
the real job's chunks, size and load cost, and `dcp.load` at any layout plans against it. Loading reads only pieces
that were written: the save writes what the load will need (`needed`), and a piece outside it is refused by name.

Every element's value is a function of the tensor's key and the element's place in the full tensor (`fill`: each
block of rows has a random stream seeded by the key and the block's number), so a piece loaded at another layout,
resharded from several saved pieces, is checked element by element against what it must hold (`verify`), with
nothing kept from the save.

DCP's planner and storage classes are public API; two names are not (`_StoragePrefix`, the file prefix a plan is
written under, and `_StorageInfo`, a piece's place in a file): `check_private_api` says so by name if a torch
release moves them.
"""
import dataclasses
import math
import zlib

import torch
from torch.distributed.checkpoint import DefaultLoadPlanner, DefaultSavePlanner, FileSystemWriter
from torch.distributed.checkpoint.default_planner import create_default_global_save_plan
from torch.distributed.checkpoint.metadata import (ChunkStorageMetadata, MetadataIndex, TensorProperties,
                                                   TensorStorageMetadata)
from torch.distributed.checkpoint.planner import LoadPlan, SavePlan, TensorWriteData, WriteItem, WriteItemType
from torch.distributed.checkpoint.planner_helpers import create_read_items_for_chunk_list
from torch.distributed.checkpoint.storage import WriteResult
from torch.futures import Future

import prism_shards as shards


def check_private_api():
    from torch.distributed.checkpoint import filesystem
    missing = [n for n in ("_StoragePrefix", "_StorageInfo") if not hasattr(filesystem, n)]
    if missing:
        raise RuntimeError(f"torch {torch.__version__}: torch.distributed.checkpoint.filesystem has no {', '.join(missing)};"
                           " PRISM's job checkpoint needs them to name each job rank's file")
    return filesystem


# ---- content: a function of key and position ----

_BLOCK = 1 << 16  # elements per block of rows: each block of a tensor has a random stream of its own


def _rows_per_block(entry):
    return max(1, _BLOCK // max(1, math.prod(entry.shape[1:])))


def _block_values(entry, block, generator, device):
    """The whole block of rows `block` of the entry's full tensor, in [-1, 1), as float32, from a stream seeded by
    the key and the block's number: the same whatever layout holds it."""
    per = _rows_per_block(entry)
    rows = min(per, entry.shape[0] - block * per)
    generator.manual_seed((zlib.crc32(entry.key.encode()) << 32) + block)
    return torch.empty((rows,) + tuple(entry.shape[1:]), dtype=torch.float32, device=device).uniform_(
        -1.0, 1.0, generator=generator)


def _pieces_of_blocks(entry):
    """(block, rows of the piece it covers, the same rows in the block, columns in the block) for each block of
    rows the entry's piece overlaps."""
    per = _rows_per_block(entry)
    first, last = entry.offsets[0], entry.offsets[0] + entry.sizes[0]
    columns = slice(entry.offsets[1], entry.offsets[1] + entry.sizes[1]) if len(entry.shape) == 2 else slice(None)
    for block in range(first // per, (last + per - 1) // per):
        lo, hi = max(first, block * per), min(last, (block + 1) * per)
        yield block, slice(lo - first, hi - first), slice(lo - block * per, hi - block * per), columns


def fill(tensor, entry):
    """Writes the entry's values into its piece (a step count holds 1000)."""
    if not entry.shape:
        tensor.fill_(1000.0)
        return
    generator = torch.Generator(device=tensor.device)
    for block, mine, theirs, columns in _pieces_of_blocks(entry):
        values = _block_values(entry, block, generator, tensor.device)
        tensor[mine].copy_(values[theirs][(slice(None), columns) if len(entry.shape) == 2 else slice(None)])


def verify(tensor, entry, where):
    """Raises ValueError naming the key and the first element that differs from what the entry's piece holds."""
    if not entry.shape:
        if tensor.item() != 1000.0:
            raise ValueError(f"{where}: {entry.key} is {tensor.item()!r} after loading, 1000.0 when saved")
        return
    generator = torch.Generator(device=tensor.device)
    for block, mine, theirs, columns in _pieces_of_blocks(entry):
        values = _block_values(entry, block, generator, tensor.device)
        want = values[theirs][(slice(None), columns) if len(entry.shape) == 2 else slice(None)].to(tensor.dtype)
        got = tensor[mine]
        if not torch.equal(got, want):
            bad = (got != want).nonzero()[0].tolist()
            at = [entry.offsets[0] + mine.start + bad[0]] + [o + b for o, b in zip(entry.offsets[1:], bad[1:])]
            raise ValueError(f"{where}: {entry.key}{at} is {got[tuple(bad)].item()!r} after loading,"
                             f" {want[tuple(bad)].item()!r} when saved")


def scramble(state):
    with torch.no_grad():
        for t in state.values():
            t.zero_()


# ---- which pieces a process holds ----

class Piece:
    """One job rank's piece of one tensor, under the key the process's own state dict holds it by."""
    __slots__ = ("job_rank", "entry", "local_key")

    def __init__(self, job_rank, entry):
        self.job_rank, self.entry = job_rank, entry
        self.local_key = f"{entry.key}@{job_rank}"


class Job:
    """A job's layout and what its ranks hold: model, precision, optimizer."""

    def __init__(self, arch, layout, precision, optimizer):
        self.arch, self.layout, self.precision, self.optimizer = arch, layout, precision, optimizer

    def entries(self, job_rank, holding=False):
        """What the job rank writes (a step count only where it holds the weight's first piece), or with `holding`
        what it holds and so loads (every step count of its weights)."""
        return shards.state_entries(self.arch, self.layout, job_rank, self.precision, self.optimizer,
                                    scalars_once=not holding)

    def pieces(self, job_rank, holding=False):
        return [Piece(job_rank, e) for e in self.entries(job_rank, holding)]

    def describe(self):
        return f"{self.arch.replace('_', '-')} {self.layout.describe()}"


def materialize(pieces, device):
    """The pieces' tensors on the device, filled with their values."""
    state = {}
    for p in pieces:
        e = p.entry
        t = torch.empty(e.sizes, dtype=getattr(torch, e.dtype), device=device)
        fill(t, e)
        state[p.local_key] = t
    return state


def _overlaps(a, b):
    return all(ao < bo + bs and bo < ao + as_ for ao, as_, bo, bs in zip(a.offsets, a.sizes, b.offsets, b.sizes))


def needed(saved, loads):
    """The saved job's pieces that loading `loads` (pieces of another layout, or the same) reads: {job rank: [entry]}.
    A step count is read from the rank that wrote it: the one holding its weight's first piece."""
    wanted = {}
    for p in loads:
        wanted.setdefault(p.entry.key, []).append(p.entry)
    out = {}
    for r in range(saved.layout.world):
        for e in saved.entries(r):
            targets = wanted.get(e.key)
            if targets and any(not e.shape or (math.prod(e.sizes) and _overlaps(e, t)) for t in targets):
                out.setdefault(r, []).append(e)
    return out


def share(ranks_and_entries, processes, process, plays):
    """This process's share of the job ranks to write: whole job ranks (one process writes each rank's files). A job
    rank a process plays (`plays`: job rank -> process) is its own; the others are dealt out by bytes, largest first,
    to the process with least so far."""
    load = [0] * processes
    for r, entries in ranks_and_entries.items():
        if r in plays:
            load[plays[r]] += shards.state_bytes(entries)
    mine = [Piece(r, e) for r, entries in sorted(ranks_and_entries.items()) if plays.get(r) == process for e in entries]
    for r, entries in sorted(ranks_and_entries.items(), key=lambda kv: (-shards.state_bytes(kv[1]), kv[0])):
        if r in plays:
            continue
        who = min(range(processes), key=lambda i: (load[i], i))
        load[who] += shards.state_bytes(entries)
        if who == process:
            mine.extend(Piece(r, e) for e in entries)
    return mine


# ---- saving ----

class JobSavePlanner(DefaultSavePlanner):
    """Writes each piece at its place in the full tensor; on the coordinator, enters the pieces of the job ranks
    nobody plays into the metadata (unless not `whole_job`), and checks with DCP's own validation that the pieces
    cover every tensor once. That validation, like the rest of the coordinator's planning, is the real job's cost:
    torch 2.13 compares the chunks of a tensor pairwise where they all span its longest dimension (k and v
    projections split by rows across tp × dp ranks), which at hundreds of ranks per tensor takes tens of seconds."""

    def __init__(self, job, pieces, written_ranks, whole_job=True):
        super().__init__()
        self.job, self.pieces, self.written_ranks, self.whole_job = job, pieces, set(written_ranks), whole_job
        self.by_index = {(p.entry.key, p.entry.offsets): p for p in pieces}
        self.absent = []

    def create_local_plan(self):
        items, mappings = [], {}
        for p in self.pieces:
            e, t = p.entry, self.state_dict[p.local_key]
            offsets = torch.Size(e.offsets)
            items.append(WriteItem(index=MetadataIndex(e.key, offsets),
                                   type=WriteItemType.SHARD if e.shape else WriteItemType.TENSOR,
                                   tensor_data=TensorWriteData(chunk=ChunkStorageMetadata(offsets, torch.Size(e.sizes)),
                                                               properties=TensorProperties.create_from_tensor(t),
                                                               size=torch.Size(e.shape))))
            mappings[e.key] = tuple(e.key.split(".", 1))
        self.plan = SavePlan(items=items, planner_data=mappings)
        return self.plan

    def create_global_plan(self, all_plans):
        plans, metadata = create_default_global_save_plan(all_plans)
        mappings = {}
        for p in plans:
            mappings.update(p.planner_data or {})
        written = {(k, tuple(c.offsets)) for k, md in metadata.state_dict_metadata.items() for c in md.chunks}
        for r in range(self.job.layout.world if self.whole_job else 0):
            for e in self.job.entries(r):
                if (e.key, e.offsets) in written:
                    continue
                md = metadata.state_dict_metadata.get(e.key)
                if md is None:
                    md = TensorStorageMetadata(TensorProperties(dtype=getattr(torch, e.dtype)), torch.Size(e.shape), [])
                    metadata.state_dict_metadata[e.key] = md
                    mappings[e.key] = tuple(e.key.split(".", 1))
                index = MetadataIndex(e.key, torch.Size(e.offsets), len(md.chunks))
                md.chunks.append(ChunkStorageMetadata(torch.Size(e.offsets), torch.Size(e.sizes)))
                self.absent.append((r, index, e.nbytes()))
        metadata = dataclasses.replace(metadata, planner_data=mappings)
        from torch.distributed.checkpoint import default_planner
        validate = getattr(default_planner, "_validate_global_plan", None)
        if validate is not None and self.whole_job:  # every tensor covered once by its pieces, written or entered
            errors = validate(plans, metadata)
            if errors:
                raise ValueError(f"the job's checkpoint does not cover its tensors: {'; '.join(errors)[:500]}")
        self.global_plan, self.metadata = plans, metadata
        return plans, metadata

    def lookup_object(self, index):
        return self.state_dict[self.by_index[(index.fqn, tuple(index.offset))].local_key]


class JobWriter(FileSystemWriter):
    """FileSystemWriter that writes each job rank's pieces into that rank's files, and gives the pieces entered for
    absent ranks a place in their rank's file as the written files lay theirs out."""

    def __init__(self, directory, planner, **kwargs):
        super().__init__(directory, **kwargs)
        self.planner = planner

    def write_data(self, plan, planner):
        fs = check_private_api()
        groups = {}
        for item in plan.items:
            groups.setdefault(self.planner.by_index[(item.index.fqn, tuple(item.index.offset))].job_rank, []).append(item)
        results = []
        for r in sorted(groups):
            part = dataclasses.replace(plan, items=groups[r], storage_data=fs._StoragePrefix(f"__{r}_"))
            results.extend(super().write_data(part, planner).wait())
        done = Future()
        done.set_result(results)
        return done

    def finish(self, metadata, results):
        if self.planner.absent:
            fs = check_private_api()
            written = [wr for rs in results for wr in rs]
            sizes = {(p.entry.key, p.entry.offsets): p.entry.nbytes() for p in self.planner.pieces}
            extra = [wr.size_in_bytes - sizes[(wr.index.fqn, tuple(wr.index.offset))] for wr in written
                     if (wr.index.fqn, tuple(wr.index.offset)) in sizes]
            overhead = round(sum(extra) / len(extra)) if extra else 0  # what the file format adds per piece
            placed, offset = [], {}
            for r, index, nbytes in self.planner.absent:
                length = nbytes + overhead
                at = offset.get(r, 0)
                offset[r] = at + length
                placed.append(WriteResult(index=index, size_in_bytes=length,
                                          storage_data=fs._StorageInfo(f"__{r}_0.distcp", at, length)))
            results = list(results) + [placed]
        super().finish(metadata, results)


# ---- loading ----

class JobLoadPlanner(DefaultLoadPlanner):
    """Reads each piece the process holds from wherever the checkpoint's pieces cover it, at any layout; refuses,
    naming it, a piece that needs one nobody wrote."""

    def __init__(self, pieces, written_ranks):
        super().__init__()
        self.pieces, self.written_ranks = pieces, set(written_ranks)
        self.by_index = {(p.entry.key, p.entry.offsets): p for p in pieces}

    def create_local_plan(self):
        fs = check_private_api()
        requests = []
        for p in self.pieces:
            e = p.entry
            md = self.metadata.state_dict_metadata.get(e.key)
            if md is None:
                raise ValueError(f"{e.key} is not in the checkpoint")
            items = create_read_items_for_chunk_list(
                e.key, md, [ChunkStorageMetadata(torch.Size(e.offsets), torch.Size(e.sizes))])
            for item in items:
                info = self.metadata.storage_data.get(item.storage_index)
                if not isinstance(info, fs._StorageInfo):
                    continue
                writer = int(info.relative_path[2:].split("_", 1)[0])
                if writer not in self.written_ranks:
                    raise ValueError(f"{e.key}{list(e.offsets)} needs the piece job rank {writer} holds, which was not"
                                     " written: save the ranks the load reads")
            requests.extend(items)
        self.plan = LoadPlan(requests)
        return self.plan

    def lookup_tensor(self, index):
        return self.state_dict[self.by_index[(index.fqn, tuple(index.offset))].local_key]

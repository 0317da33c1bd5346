"""The tensors one rank of a large training job holds, so that a few ranks write exactly what their peers of a
512-rank job write.

An architecture (Llama 3 8B, 70B, 405B: hidden size, layers, heads, KV heads, feed-forward size, vocabulary) is
laid out as training lays it out: tensor parallelism (`tp`) splits each projection across the ranks of a node
(column-parallel q, k, v, gate and up projections and the vocabulary of the embedding and the output head along
their rows; row-parallel o and down projections along their columns; norms replicated), pipeline parallelism (`pp`)
gives each stage a contiguous run of layers (the embedding to the first, the final norm and output head to the
last), and FSDP shards each resulting tensor along its first dimension across the data-parallel group (`dp`), in
chunks of ceil(rows / dp) as FSDP2 does. The job's rank r sits at tp = r % tp, dp = (r // tp) % dp,
pp = r // (tp * dp): tp innermost, as in torchtitan's mesh.

A replicated norm is held by every tensor-parallel rank but written once in a DCP checkpoint; here tensor-parallel
rank 0 holds and writes it. PRISM's Java side computes the same arithmetic (dev.prism.torch.ParallelLayout) to plan
and refuse before anything runs; the tests hold the two to each other.
"""
import math

ARCHITECTURES = {
    # hidden, layers, attention heads, KV heads, feed-forward (intermediate) size, vocabulary: the model cards' figures
    "llama3_8b": dict(hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=128256),
    "llama3_70b": dict(hidden=8192, layers=80, heads=64, kv_heads=8, ffn=28672, vocab=128256),
    "llama3_405b": dict(hidden=16384, layers=126, heads=128, kv_heads=8, ffn=53248, vocab=128256),
}

# bytes per element of the weights, and whether an fp32 master copy sits in the optimizer state beside them
PRECISIONS = {"bf16": (2, False), "fp32": (4, False), "mixed": (2, True)}


class Layout:
    """tp × pp × dp ranks of a job."""

    def __init__(self, tp, pp, dp):
        self.tp, self.pp, self.dp = tp, pp, dp
        self.world = tp * pp * dp

    def coordinates(self, job_rank):
        """(tp, dp, pp) coordinates of the job's rank."""
        return job_rank % self.tp, (job_rank // self.tp) % self.dp, job_rank // (self.tp * self.dp)

    def describe(self):
        return f"tp={self.tp} pp={self.pp} dp={self.dp}"


def check(arch, layout):
    """Raises ValueError naming what the layout cannot split."""
    a = ARCHITECTURES[arch]
    for what, size in (("attention heads", a["heads"]), ("KV heads", a["kv_heads"]), ("feed-forward size", a["ffn"]),
                       ("vocabulary", a["vocab"])):
        if size % layout.tp:
            raise ValueError(f"tp={layout.tp} does not divide {arch}'s {size} {what}")
    if layout.pp > a["layers"]:
        raise ValueError(f"pp={layout.pp} is more pipeline stages than {arch}'s {a['layers']} layers")


def stage_layers(layers, pp, stage):
    """The layers of one pipeline stage: contiguous, the first layers % pp stages one more."""
    base, extra = divmod(layers, pp)
    start = stage * base + min(stage, extra)
    return range(start, start + base + (1 if stage < extra else 0))


def stage_tensors(arch, pp, stage):
    """(name, full shape, tensor-parallel split dimension or None) of each tensor of a pipeline stage."""
    a = ARCHITECTURES[arch]
    h, head_dim = a["hidden"], a["hidden"] // a["heads"]
    q, kv, ffn = a["heads"] * head_dim, a["kv_heads"] * head_dim, a["ffn"]
    if stage == 0:
        yield "tok_embeddings.weight", (a["vocab"], h), 0
    for layer in stage_layers(a["layers"], pp, stage):
        p = f"layers.{layer}."
        yield p + "attention.wq.weight", (q, h), 0
        yield p + "attention.wk.weight", (kv, h), 0
        yield p + "attention.wv.weight", (kv, h), 0
        yield p + "attention.wo.weight", (h, q), 1
        yield p + "feed_forward.w1.weight", (ffn, h), 0
        yield p + "feed_forward.w3.weight", (ffn, h), 0
        yield p + "feed_forward.w2.weight", (h, ffn), 1
        yield p + "attention_norm.weight", (h,), None
        yield p + "ffn_norm.weight", (h,), None
    if stage == pp - 1:
        yield "norm.weight", (h,), None
        yield "output.weight", (a["vocab"], h), 0


def chunk(shape, split, layout, tp_rank, dp_rank):
    """Where the rank's piece of a tensor sits in the full tensor: (offsets, sizes). Its tensor-parallel slice along
    the split dimension, then its FSDP chunk of that slice's rows (dp=1: the whole slice)."""
    offsets, sizes = [0] * len(shape), list(shape)
    if split is not None:
        sizes[split] //= layout.tp
        offsets[split] = tp_rank * sizes[split]
    rows = sizes[0]
    step = math.ceil(rows / layout.dp)
    start = min(rows, dp_rank * step)
    sizes[0] = min(rows, start + step) - start
    offsets[0] += start
    return tuple(offsets), tuple(sizes)


def rank_chunks(arch, layout, job_rank):
    """(name, full shape, offsets, sizes) of every weight the job's rank holds and writes."""
    t, d, p = layout.coordinates(job_rank)
    for name, shape, split in stage_tensors(arch, layout.pp, p):
        if split is None and t != 0:
            continue  # replicated across tensor-parallel ranks: written once, by tp rank 0
        offsets, sizes = chunk(shape, split, layout, t, d)
        yield name, shape, offsets, sizes


def parameters(arch):
    """The architecture's parameter count: every tensor of a one-stage layout."""
    return sum(math.prod(shape) for _, shape, _ in stage_tensors(arch, 1, 0))


class Entry:
    """One tensor of a rank's checkpoint: its key in the job's state dict, the full tensor's shape, where the rank's
    piece sits in it, and its dtype."""
    __slots__ = ("key", "shape", "offsets", "sizes", "dtype")

    def __init__(self, key, shape, offsets, sizes, dtype):
        self.key, self.shape, self.offsets, self.sizes, self.dtype = key, tuple(shape), tuple(offsets), tuple(sizes), dtype

    def nbytes(self):
        return math.prod(self.sizes) * DTYPE_BYTES[self.dtype]


DTYPE_BYTES = {"bfloat16": 2, "float32": 4}


def state_entries(arch, layout, job_rank, precision, optimizer, scalars_once):
    """Every tensor of the rank's checkpoint: weights, then the optimizer's state per weight (Adam: exp_avg, exp_avg_sq
    and its step count; SGD: momentum), with an fp32 master copy under mixed. Keys follow a job that saves
    {"model": model state, "optim": optimizer state}. With scalars_once a step count, the same on every rank, is
    written by the rank holding the weight's first piece only, as DCP writes a tensor every rank holds alike once."""
    weight_bytes, master = PRECISIONS[precision]
    weight_dtype = "bfloat16" if weight_bytes == 2 else "float32"
    out = []
    for name, shape, offsets, sizes in rank_chunks(arch, layout, job_rank):
        out.append(Entry(f"model.{name}", shape, offsets, sizes, weight_dtype))
        state = f"optim.state.{name}."
        if master:
            out.append(Entry(state + "master", shape, offsets, sizes, "float32"))
        if optimizer == "adam":
            out.append(Entry(state + "exp_avg", shape, offsets, sizes, "float32"))
            out.append(Entry(state + "exp_avg_sq", shape, offsets, sizes, "float32"))
            if not scalars_once or not any(offsets):
                out.append(Entry(state + "step", (), (), (), "float32"))
        else:
            out.append(Entry(state + "momentum_buffer", shape, offsets, sizes, "float32"))
    return out


def state_bytes(entries):
    return sum(e.nbytes() for e in entries)

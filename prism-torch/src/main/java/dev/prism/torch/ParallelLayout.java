package dev.prism.torch;

import java.util.ArrayList;
import java.util.List;

/**
 * How a training job lays a model over its ranks: tensor parallelism ({@code tp}: each projection split across the
 * ranks of a node), pipeline parallelism ({@code pp}: contiguous runs of layers per stage, the embedding on the first
 * and the final norm and output head on the last) and, inside each data-parallel group ({@code dp}), FSDP's sharding
 * of every tensor along its first dimension in chunks of ceil(rows / dp). The job's rank r sits at
 * tp = r % tp, dp = (r / tp) % dp, pp = r / (tp · dp), tensor parallelism innermost (torchtitan's mesh order).
 *
 * <p>{@link #shard} gives what one rank of the job holds and writes: the same arithmetic the Python side uses to
 * build the rank's tensors. A norm replicated across tensor-parallel ranks is counted once, at tensor-parallel rank
 * 0, as a DCP checkpoint writes it once.
 *
 * <pre>{@code
 * import dev.prism.torch.ParallelLayout;
 * import dev.prism.torch.TorchModel;
 * import dev.prism.torch.TorchOptimizer;
 * import dev.prism.torch.TorchPrecision;
 *
 * var layout = ParallelLayout.of(8, 16, 4);
 * var shard = layout.shard(TorchModel.LLAMA3_405B, 0, true);
 * System.out.println(layout + ": rank 0 holds " + shard.parameters() + " parameters, "
 *         + shard.bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM) + " bytes");
 * }</pre>
 *
 * @param tp tensor-parallel degree, 1..1024
 * @param pp pipeline stages, 1..1024
 * @param dp data-parallel (FSDP) degree, 1..1,000,000
 */
public record ParallelLayout(int tp, int pp, int dp) {
    /** Checks the degrees. */
    public ParallelLayout {
        if (tp < 1 || tp > 1024) {
            throw new IllegalArgumentException("tp must be in 1..1024, was " + tp);
        }
        if (pp < 1 || pp > 1024) {
            throw new IllegalArgumentException("pp must be in 1..1024, was " + pp);
        }
        if (dp < 1 || dp > 1_000_000) {
            throw new IllegalArgumentException("dp must be in 1..1000000, was " + dp);
        }
    }

    /** @return the layout tp × pp × dp */
    public static ParallelLayout of(int tp, int pp, int dp) {
        return new ParallelLayout(tp, pp, dp);
    }

    /** @return the job's ranks, tp · pp · dp */
    public long world() {
        return (long) tp * pp * dp;
    }

    /** @return {@code {tp, dp, pp}} coordinates of the job's rank */
    public int[] coordinates(long jobRank) {
        if (jobRank < 0 || jobRank >= world()) {
            throw new IllegalArgumentException("jobRank must be in 0.." + (world() - 1) + ", was " + jobRank);
        }
        return new int[]{(int) (jobRank % tp), (int) (jobRank / tp % dp), (int) (jobRank / ((long) tp * dp))};
    }

    /**
     * @return why {@code model} cannot be laid out so (a degree that does not divide its heads, KV heads,
     *         feed-forward size or vocabulary; more stages than layers), or null when it can
     */
    public String unsplittable(TorchModel model) {
        if (!model.isPreset()) {
            return model.label() + " is built whole on every rank; a layout applies to the presets (llama3-8b, llama3-70b, llama3-405b)";
        }
        int[] sizes = {model.heads, model.kvHeads, model.ffn, model.vocab};
        String[] what = {"attention heads", "KV heads", "feed-forward size", "vocabulary"};
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] % tp != 0) {
                return "tp=" + tp + " does not divide " + model.label() + "'s " + sizes[i] + " " + what[i];
            }
        }
        if (pp > model.layers) {
            return "pp=" + pp + " is more pipeline stages than " + model.label() + "'s " + model.layers + " layers";
        }
        return null;
    }

    /**
     * What one rank of the job holds of a preset's weights.
     *
     * @param parameters the weights' elements
     * @param tensors    the weight tensors (each has its optimizer state beside it)
     * @param steps      the Adam step counts the rank writes: one per tensor in a {@code torch.save} file; in a DCP
     *                   checkpoint one per tensor whose first piece the rank holds, since DCP writes a value every
     *                   rank holds alike once
     */
    public record Shard(long parameters, int tensors, int steps) {
        /** @return the checkpoint's bytes for this shard: weights and optimizer state (Adam's step counts included) */
        public long bytes(TorchPrecision precision, TorchOptimizer optimizer) {
            return parameters * precision.bytesPerParameter(optimizer) + (optimizer == TorchOptimizer.ADAM ? 4L * steps : 0);
        }
    }

    /**
     * @param model   a preset
     * @param jobRank a rank of the job
     * @param fsdp    whether FSDP shards the tensors across the data-parallel group (DCP's path); without it each
     *                data-parallel replica holds its whole model-parallel shard (the torch.save path)
     * @return what that rank holds and writes
     */
    public Shard shard(TorchModel model, long jobRank, boolean fsdp) {
        String why = unsplittable(model);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        int[] c = coordinates(jobRank);
        ParallelLayout pieces = fsdp ? this : ParallelLayout.of(tp, pp, 1);
        long rank = fsdp ? jobRank : (long) c[2] * tp + c[0];
        long parameters = 0;
        int tensors = 0;
        int first = 0;
        for (Piece piece : pieces.pieces(model, rank)) {
            parameters += piece.elements();
            tensors++;
            first += piece.isFirst() ? 1 : 0;
        }
        return new Shard(parameters, tensors, fsdp ? first : tensors);
    }

    /**
     * The job rank whose checkpoint shard is the largest: the rank a save of the whole job waits for. Every tensor's
     * FSDP chunk is full at data-parallel rank 0 (later chunks can run short), the replicated norms and the step
     * counts sit at tensor-parallel rank 0, and the stages differ (the embedding on the first, the head on the last,
     * a layer more on the first {@code layers % pp}), so the largest is the first stage-leading rank that holds most.
     *
     * @param model     a preset
     * @param fsdp      whether FSDP shards the tensors across the data-parallel group (see {@link #shard})
     * @param precision how the weights are stored
     * @param optimizer whose state is saved beside them
     * @return the lowest job rank whose shard has the most bytes
     */
    public long largestShardRank(TorchModel model, boolean fsdp, TorchPrecision precision, TorchOptimizer optimizer) {
        long best = 0;
        long bestBytes = -1;
        for (int stage = 0; stage < pp; stage++) {
            long rank = (long) stage * tp * dp;
            long bytes = shard(model, rank, fsdp).bytes(precision, optimizer);
            if (bytes > bestBytes) {
                best = rank;
                bestBytes = bytes;
            }
        }
        return best;
    }

    /**
     * One job rank's piece of one weight tensor: where it sits in the full tensor (columns 1 for a vector).
     *
     * @param tensor       the tensor's name in the model's state dict
     * @param rows         the full tensor's rows
     * @param columns      its columns
     * @param rowOffset    the piece's first row
     * @param columnOffset its first column
     * @param heldRows     its rows (0 where FSDP's chunks run out before this rank)
     * @param heldColumns  its columns
     */
    record Piece(String tensor, long rows, long columns, long rowOffset, long columnOffset, long heldRows, long heldColumns) {
        long elements() {
            return heldRows * heldColumns;
        }

        /** @return whether this is the tensor's first piece, whose holder writes the tensor's step count */
        boolean isFirst() {
            return rowOffset == 0 && columnOffset == 0;
        }

        boolean overlaps(Piece o) {
            return elements() > 0 && o.elements() > 0 && rowOffset < o.rowOffset + o.heldRows
                    && o.rowOffset < rowOffset + heldRows && columnOffset < o.columnOffset + o.heldColumns
                    && o.columnOffset < columnOffset + heldColumns;
        }
    }

    /**
     * @return the pieces of weights the job's rank holds and writes: its tensor-parallel slice of each tensor of its
     *         pipeline stage, then its FSDP chunk of that slice's rows; a norm replicated across tensor-parallel ranks
     *         only at tensor-parallel rank 0
     */
    List<Piece> pieces(TorchModel model, long jobRank) {
        int[] c = coordinates(jobRank);
        List<Piece> out = new ArrayList<>();
        for (Tensor t : stageTensors(model, c[2])) {
            if (t.split < 0 && c[0] != 0) {
                continue;
            }
            long rows = t.rows;
            long columns = t.columns;
            long rowOffset = 0;
            long columnOffset = 0;
            if (t.split == 0) {
                rows /= tp;
                rowOffset = c[0] * rows;
            } else if (t.split == 1) {
                columns /= tp;
                columnOffset = c[0] * columns;
            }
            long chunk = (rows + dp - 1) / dp;
            long start = Math.min(rows, c[1] * chunk);
            out.add(new Piece(t.name, t.rows, t.columns, rowOffset + start, columnOffset,
                    Math.min(rows, start + chunk) - start, columns));
        }
        return out;
    }

    /** A tensor of a stage: {@code split} is the tensor-parallel split dimension, -1 for a replicated norm. */
    private record Tensor(String name, long rows, long columns, int split) {
    }

    /** @return each tensor of a stage, in the order the Python side lists them */
    private List<Tensor> stageTensors(TorchModel m, int stage) {
        long h = m.hidden;
        long headDim = h / m.heads;
        long q = m.heads * headDim;
        long kv = m.kvHeads * headDim;
        List<Tensor> out = new ArrayList<>();
        if (stage == 0) {
            out.add(new Tensor("tok_embeddings.weight", m.vocab, h, 0));
        }
        int base = m.layers / pp;
        int extra = m.layers % pp;
        int start = stage * base + Math.min(stage, extra);
        int layers = base + (stage < extra ? 1 : 0);
        for (int i = start; i < start + layers; i++) {
            String p = "layers." + i + ".";
            out.add(new Tensor(p + "attention.wq.weight", q, h, 0));
            out.add(new Tensor(p + "attention.wk.weight", kv, h, 0));
            out.add(new Tensor(p + "attention.wv.weight", kv, h, 0));
            out.add(new Tensor(p + "attention.wo.weight", h, q, 1));
            out.add(new Tensor(p + "feed_forward.w1.weight", m.ffn, h, 0));
            out.add(new Tensor(p + "feed_forward.w3.weight", m.ffn, h, 0));
            out.add(new Tensor(p + "feed_forward.w2.weight", h, m.ffn, 1));
            out.add(new Tensor(p + "attention_norm.weight", h, 1, -1));
            out.add(new Tensor(p + "ffn_norm.weight", h, 1, -1));
        }
        if (stage == pp - 1) {
            out.add(new Tensor("norm.weight", h, 1, -1));
            out.add(new Tensor("output.weight", m.vocab, h, 0));
        }
        return out;
    }

    /**
     * What a restore reads of a checkpoint saved at this layout: for each job rank of this layout whose pieces the
     * restoring ranks' pieces overlap, the elements and step counts of those pieces; the same rule the Python side
     * uses to decide what the untimed save writes.
     *
     * @param model    a preset
     * @param restored the layout restored into (this one, or another)
     * @param first    the first job rank of {@code restored} the restoring ranks play
     * @param ranks    how many they are
     * @return job rank of this layout → what it must have written, in rank order
     */
    java.util.SortedMap<Long, Shard> readBy(TorchModel model, ParallelLayout restored, long first, int ranks) {
        java.util.Map<String, List<Piece>> wanted = new java.util.HashMap<>();
        for (long r = first; r < first + ranks; r++) {
            for (Piece p : restored.pieces(model, r)) {
                wanted.computeIfAbsent(p.tensor, k -> new ArrayList<>()).add(p);
            }
        }
        java.util.SortedMap<Long, Shard> out = new java.util.TreeMap<>();
        for (long r = 0; r < world(); r++) {
            long parameters = 0;
            int tensors = 0;
            int steps = 0;
            for (Piece p : pieces(model, r)) {
                List<Piece> targets = wanted.get(p.tensor);
                if (targets == null) {
                    continue;
                }
                if (targets.stream().anyMatch(p::overlaps)) {
                    parameters += p.elements();
                    tensors++;
                }
                steps += p.isFirst() ? 1 : 0;
            }
            if (tensors > 0 || steps > 0) {
                out.put(r, new Shard(parameters, tensors, steps));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "tp=" + tp + " pp=" + pp + " dp=" + dp;
    }
}

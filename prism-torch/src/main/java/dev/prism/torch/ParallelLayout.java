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
     */
    public record Shard(long parameters, int tensors) {
        /** @return the checkpoint's bytes for this shard: weights and optimizer state (Adam's step counts included) */
        public long bytes(TorchPrecision precision, TorchOptimizer optimizer) {
            return parameters * precision.bytesPerParameter(optimizer) + (optimizer == TorchOptimizer.ADAM ? 4L * tensors : 0);
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
        int tpRank = c[0];
        int dpRank = c[1];
        int groups = fsdp ? dp : 1;
        long parameters = 0;
        int tensors = 0;
        for (long[] t : stageTensors(model, c[2])) {
            boolean replicated = t[2] < 0;
            if (replicated && tpRank != 0) {
                continue;
            }
            long rows = t[0];
            long columns = t[1];
            if (t[2] == 0) {
                rows /= tp;
            } else if (t[2] == 1) {
                columns /= tp;
            }
            long chunk = (rows + groups - 1) / groups;
            long start = Math.min(rows, (fsdp ? dpRank : 0) * chunk);
            long held = Math.min(rows, start + chunk) - start;
            parameters += held * columns;
            tensors++;
        }
        return new Shard(parameters, tensors);
    }

    /** @return {rows, columns (1 for a vector), tensor-parallel split dimension or -1} of each tensor of a stage */
    private List<long[]> stageTensors(TorchModel m, int stage) {
        long h = m.hidden;
        long headDim = h / m.heads;
        long q = m.heads * headDim;
        long kv = m.kvHeads * headDim;
        List<long[]> out = new ArrayList<>();
        if (stage == 0) {
            out.add(new long[]{m.vocab, h, 0});
        }
        int base = m.layers / pp;
        int extra = m.layers % pp;
        int layers = base + (stage < extra ? 1 : 0);
        for (int i = 0; i < layers; i++) {
            out.add(new long[]{q, h, 0});
            out.add(new long[]{kv, h, 0});
            out.add(new long[]{kv, h, 0});
            out.add(new long[]{h, q, 1});
            out.add(new long[]{m.ffn, h, 0});
            out.add(new long[]{m.ffn, h, 0});
            out.add(new long[]{h, m.ffn, 1});
            out.add(new long[]{h, 1, -1});
            out.add(new long[]{h, 1, -1});
        }
        if (stage == pp - 1) {
            out.add(new long[]{h, 1, -1});
            out.add(new long[]{m.vocab, h, 0});
        }
        return out;
    }

    @Override
    public String toString() {
        return "tp=" + tp + " pp=" + pp + " dp=" + dp;
    }
}

package dev.prism.torch;

import dev.prism.Footprint;
import dev.prism.Parameters;
import dev.prism.spi.Formats;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static dev.prism.torch.TorchBenchmark.*;

/**
 * The checkpoint benchmarks that take a frontier preset ({@link DdpSave}, {@link DdpLoad}, {@link FsdpSave},
 * {@link FsdpLoad}): a model at its real size laid out over a full training job ({@link ParallelLayout}), of which the
 * ranks run play consecutive ranks from {@code first_rank} on, each materialising only the shard its job rank holds;
 * and {@code saves} checkpoints written one after another. With a preset, {@link #footprint} says before anything runs
 * what the ranks write and hold, and a scenario refuses a target or a node that cannot hold it.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchModel;
 *
 * var b = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_405B).layout(8, 16, 4);
 * System.out.println(b.footprint(2).orElseThrow().summary());
 * }</pre>
 *
 * @param <B> the benchmark's own type, which every setter returns
 */
public abstract class ShardedCheckpoint<B extends ShardedCheckpoint<B>> extends TorchCheckpoint<B> {
    /** What a rank's Python and torch take beside its tensors, counted in a footprint's memory. */
    static final long RUNTIME_BYTES = 1L << 30;

    ShardedCheckpoint(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, parameters, torchRun);
    }

    /** @param tp the job's tensor-parallel degree @param pp its pipeline stages @param dp its data-parallel degree (0: the ranks run ÷ (tp × pp)) */
    public B layout(int tp, int pp, int dp) {
        return copy(parameters().with(TP, tp).with(PP, pp).with(DP, dp), torchRun());
    }

    /** @param precision how a preset's weights are stored */
    public B precision(TorchPrecision precision) {
        return with(PRECISION, precision);
    }

    /** @param rank the job rank that rank 0 plays, 0..1e8 */
    public B firstRank(int rank) {
        return with(FIRST_RANK, rank);
    }

    /** @param saves checkpoints written one after another, 1..1000 */
    public B saves(int saves) {
        return with(SAVES, saves);
    }

    /**
     * Places the ranks run so that they include the job's largest shard ({@link ParallelLayout#largestShardRank}):
     * the rank a save of the whole job waits for, so that the slowest rank measured is the one the job would wait for.
     * {@code first_rank} becomes that rank, or the last one that still leaves room for {@code tasks} ranks.
     *
     * <pre>{@code
     * import dev.prism.torch.TorchBenchmarks;
     * import dev.prism.torch.TorchModel;
     *
     * var b = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_70B).layout(8, 4, 2).placedOnLargestShard(2);
     * System.out.println(b.parameters());
     * }</pre>
     *
     * @param tasks the ranks that will run, 1 up to the job's ranks
     * @return a copy whose {@code first_rank} puts the largest shard among the {@code tasks} ranks run
     * @throws IllegalArgumentException when the model is no preset or the layout does not hold {@code tasks} ranks
     */
    public B placedOnLargestShard(int tasks) {
        Parameters p = parameters();
        if (tasks < 1) {
            throw new IllegalArgumentException("tasks must be at least 1, was " + tasks);
        }
        ParallelLayout layout = firstRank(0).layout(tasks);
        long largest = layout.largestShardRank(p.get(MODEL), fsdp(), p.get(PRECISION), p.get(OPTIMIZER));
        return firstRank((int) Math.min(largest, layout.world() - tasks));
    }

    /** @return whether FSDP shards the tensors across the data-parallel group (the DCP path) */
    abstract boolean fsdp();

    /** @return checkpoints on the target at the peak: with {@code saves} above 1 the last one and the next, until the next is whole */
    int checkpointsHeld() {
        return parameters().get(SAVES) > 1 ? 2 : 1;
    }

    /** @return copies of a rank's state held at the peak beside the state itself (a load's or a stage's copy) */
    int extraCopies() {
        return 0;
    }

    /**
     * @param tasks the ranks run
     * @return the full job's layout at this task count: dp as given, or the ranks run ÷ (tp × pp)
     * @throws IllegalArgumentException when the model is no preset, the layout does not split it, or the ranks run
     *                                  are not all ranks of the job
     */
    public ParallelLayout layout(int tasks) {
        Parameters p = parameters();
        TorchModel model = p.get(MODEL);
        int tp = p.get(TP);
        int pp = p.get(PP);
        int dp = p.get(DP);
        if (!model.isPreset()) {
            throw new IllegalArgumentException(model.label() + " is built whole on every rank: it has no layout");
        }
        String why = ParallelLayout.of(tp, pp, Math.max(1, dp)).unsplittable(model);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        if (dp == 0 && tasks % (tp * pp) != 0) {
            throw new IllegalArgumentException("with dp=0 the job is the ranks run, so " + tasks + " tasks must be a"
                    + " multiple of tp × pp = " + tp * pp + "; or give dp");
        }
        ParallelLayout layout = ParallelLayout.of(tp, pp, dp == 0 ? tasks / (tp * pp) : dp);
        long first = p.get(FIRST_RANK);
        if (first + tasks > layout.world()) {
            throw new IllegalArgumentException("ranks " + first + "-" + (first + tasks - 1) + " are not all ranks of the "
                    + layout.world() + "-rank job " + layout + ": run at most " + Math.max(0, layout.world() - first)
                    + " tasks from first_rank=" + first);
        }
        return layout;
    }

    /**
     * @return every parameter but those that do not apply: a preset's size, layers, batch and fault (it has its
     *         architecture's, and is saved without training) or a model built whole's layout and precision (it is
     *         built whole on every rank), so a title and a history series say only what was run
     */
    @Override
    public java.util.Map<String, String> recordedParameters() {
        java.util.Map<String, String> recorded = new java.util.LinkedHashMap<>(super.recordedParameters());
        (parameters().get(MODEL).isPreset() ? java.util.List.of(PARAMS, LAYERS, BATCH, FAULT)
                : java.util.List.of(TP, PP, DP, FIRST_RANK, PRECISION, JOB_METADATA, RESTORE_TP, RESTORE_PP, RESTORE_DP,
                        REPLICA_BROADCAST))
                .forEach(p -> recorded.remove(p.name()));
        return recorded;
    }

    /**
     * @param saved the layout the checkpoint is saved at
     * @return the layout a load restores into (the saved one unless given), or null for a benchmark that only saves
     */
    ParallelLayout restoredInto(ParallelLayout saved) {
        return null;
    }

    /**
     * @return for a preset, the bytes its ranks write at their peak (with {@code saves} above 1 the last checkpoint and
     *         the next one, until the next is whole) and the memory each node's ranks hold (their largest shard, its
     *         extra copies, and 1 GiB for Python and torch per rank); empty for a model built whole
     */
    @Override
    public Optional<Footprint> footprint(int tasks) {
        super.footprint(tasks);
        Parameters p = parameters();
        TorchModel model = p.get(MODEL);
        if (!model.isPreset()) {
            boolean restores = p.declared().contains(RESTORE_TP) && (p.get(RESTORE_TP) != 0 || p.get(RESTORE_PP) != 0
                    || p.get(RESTORE_DP) != 0);
            if (p.get(TP) != 1 || p.get(PP) != 1 || p.get(DP) != 0 || p.get(FIRST_RANK) != 0 || restores) {
                throw new IllegalArgumentException("tp, pp, dp, first_rank and the layout restored into lay out a preset"
                        + " (llama3-8b, llama3-70b, llama3-405b); " + model.label() + " is built whole on every rank");
            }
            if (p.declared().contains(REPLICA_BROADCAST) && p.get(REPLICA_BROADCAST)) {
                throw new IllegalArgumentException("replica_broadcast shares a preset's model-parallel shard among its"
                        + " replicas; " + model.label() + " is built whole on every rank");
            }
            if (p.declared().contains(JOB_METADATA) && !p.get(JOB_METADATA)) {
                throw new IllegalArgumentException("job_metadata=false leaves the absent ranks of a preset's job out of"
                        + " its .metadata; " + model.label() + " is built whole on every rank, and its ranks are the job");
            }
            return Optional.empty();
        }
        for (dev.prism.Parameter<?> whole : java.util.List.of(PARAMS, LAYERS, BATCH, FAULT)) {
            if (!p.get(whole).equals(whole.defaultValue())) {
                throw new IllegalArgumentException(whole.name() + " applies to models built whole; " + model.label()
                        + " has its architecture's size and is saved and loaded without training or faults");
            }
        }
        if (p.declared().contains(FULL_STATE_DICT) && p.get(FULL_STATE_DICT)) {
            throw new IllegalArgumentException("full_state_dict gathers a model built whole; a preset's ranks hold shards"
                    + " of a job larger than the ranks run");
        }
        ParallelLayout layout = layout(tasks);
        TorchPrecision precision = p.get(PRECISION);
        TorchOptimizer optimizer = p.get(OPTIMIZER);
        long first = p.get(FIRST_RANK);
        ParallelLayout restored = fsdp() ? restoredInto(layout) : null;
        long written = 0;
        long largest = 0;
        String restoring = "";
        if (restored != null) {
            String why = restored.unsplittable(model);
            if (why != null) {
                throw new IllegalArgumentException("the layout restored into: " + why);
            }
            if (first + tasks > restored.world()) {
                throw new IllegalArgumentException("ranks " + first + "-" + (first + tasks - 1) + " are not all ranks of"
                        + " the " + restored.world() + "-rank job " + restored + " the checkpoint is restored into");
            }
            // the untimed save writes what the loads read, each job rank by one process: the ranks played by
            // their own, the others dealt out largest first to the process with least so far
            java.util.SortedMap<Long, ParallelLayout.Shard> read = layout.readBy(model, restored, first, tasks);
            long[] share = new long[tasks];
            java.util.List<java.util.Map.Entry<Long, Long>> others = new java.util.ArrayList<>();
            for (var e : read.entrySet()) {
                long bytes = e.getValue().bytes(precision, optimizer);
                written += bytes;
                if (e.getKey() >= first && e.getKey() < first + tasks) {
                    share[(int) (e.getKey() - first)] += bytes;
                } else {
                    others.add(java.util.Map.entry(e.getKey(), bytes));
                }
            }
            others.sort(java.util.Comparator.comparing((java.util.Map.Entry<Long, Long> e) -> -e.getValue())
                    .thenComparing(java.util.Map.Entry::getKey));
            for (var e : others) {
                int least = 0;
                for (int i = 1; i < tasks; i++) {
                    least = share[i] < share[least] ? i : least;
                }
                share[least] += e.getValue();
            }
            for (int i = 0; i < tasks; i++) {
                // a rank holds, and loads, the step count of every tensor it holds a piece of
                ParallelLayout.Shard held = restored.shard(model, first + i, true);
                long load = new ParallelLayout.Shard(held.parameters(), held.tensors(), held.tensors())
                        .bytes(precision, optimizer);
                largest = Math.max(largest, Math.max(share[i], load));
            }
            restoring = restored.equals(layout) ? "" : ", restored into " + restored + " (" + read.size()
                    + " saved ranks read)";
        } else {
            Set<Long> writers = new HashSet<>();
            ParallelLayout modelParallel = ParallelLayout.of(layout.tp(), layout.pp(), 1);
            for (long r = first; r < first + tasks; r++) {
                int[] c = layout.coordinates(r);
                long modelParallelRank = (long) c[2] * layout.tp() + c[0];
                long bytes = fsdp() ? layout.shard(model, r, true).bytes(precision, optimizer)
                        : modelParallel.shard(model, modelParallelRank, false).bytes(precision, optimizer);
                largest = Math.max(largest, bytes);
                // under DDP the first rank run with each (pp, tp) coordinate writes that model-parallel shard
                if (fsdp() || writers.add(modelParallelRank)) {
                    written += bytes;
                }
            }
        }
        long peak = checkpointsHeld() * written;
        int nodes = torchRun().nodes();
        long ranksPerNode = (tasks + nodes - 1) / nodes;
        long perRank = largest * (1 + extraCopies()) + RUNTIME_BYTES;
        long memory = ranksPerNode * perRank;
        long whole = model.parameterCount() * precision.bytesPerParameter(optimizer);
        String ranks = tasks == 1 ? "rank " + first : "ranks " + first + "-" + (first + tasks - 1);
        String summary = ranks + " of " + layout.world() + ", " + model.label() + " " + layout + restoring + ": up to "
                + Formats.bytes(largest) + " per rank (" + Formats.bytes(perRank) + " of memory), " + Formats.bytes(written)
                + " per checkpoint of these ranks, " + Formats.bytes(whole) + " for the whole job";
        return Optional.of(new Footprint(peak, memory, summary));
    }
}

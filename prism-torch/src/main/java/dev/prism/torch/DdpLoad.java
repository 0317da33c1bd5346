package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code ddp_load}: all ranks torch.load the same checkpoint, train an iteration and verify every tensor against its
 * digest at save time.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.ddpLoad().parameters(50_000_000).dropCache(true);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class DdpLoad extends ShardedCheckpoint<DdpLoad> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "all ranks torch.load the same checkpoint, train an iteration and verify every"
            + " tensor against its digest at save time";

    DdpLoad(Parameters parameters, TorchRun torchRun) {
        super("ddp_load", DESCRIPTION, parameters, torchRun);
    }

    @Override
    boolean fsdp() {
        return false;
    }

    @Override
    DdpLoad copy(Parameters parameters, TorchRun torchRun) {
        return new DdpLoad(parameters, torchRun);
    }

    /** @param loads loads of the last checkpoint one after another, 1..1000 */
    public DdpLoad loads(int loads) {
        return with(TorchBenchmark.LOADS, loads);
    }

    /** @param mmap load through torch.load(mmap=True) instead of reading the file */
    public DdpLoad mmap(boolean mmap) {
        return with(TorchBenchmark.MMAP, mmap);
    }

    /**
     * @param broadcast a preset's data-parallel replicas among the ranks run get their model-parallel shard from the
     *                  first of them, which reads it and broadcasts it, instead of each reading it from storage (what a
     *                  restart that reads once per shard saves the storage; each rank's bytes read are its counters)
     */
    public DdpLoad replicaBroadcast(boolean broadcast) {
        return with(TorchBenchmark.REPLICA_BROADCAST, broadcast);
    }

    @Override
    int extraCopies() {
        return 1; // torch.load's tensors beside the rank's own until they are copied in
    }
}

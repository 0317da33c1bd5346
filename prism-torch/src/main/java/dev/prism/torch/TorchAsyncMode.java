package dev.prism.torch;

/**
 * How {@code dcp.async_save} takes the state off training's hands ({@code async_mode}, with {@code async_save=true}):
 * each gives training back at a different point of the save, which the four clocks of every save (blocked, staged,
 * durable, visible) show.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchAsyncMode;
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.fsdpSave().asyncSave(true).asyncMode(TorchAsyncMode.PROCESS);
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum TorchAsyncMode {
    /** The state is copied to CPU memory, then written by a thread of the rank's own process (DCP's default). */
    THREAD,
    /** The state is copied to CPU memory, then written by a separate process DCP starts and keeps. */
    PROCESS,
    /**
     * DCP's {@code DefaultStager}: the copy into pinned memory runs on a CUDA stream, so the call returns before
     * staging ends; needs a GPU (refused naming it on a rank without one).
     */
    STAGED
}

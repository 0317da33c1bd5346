package dev.prism.torch;

/**
 * The format the {@code dataloader} benchmark reads its samples from ({@code format}), each read as training jobs read
 * it. Every format holds the same samples for the same seed, so their loads compare on equal bytes.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchDataFormat;
 *
 * var b = TorchBenchmarks.dataloader().format(TorchDataFormat.PARQUET).samples(2_000)
 *         .sampleSize(DataSize.ofKiB(32)).rowGroup(DataSize.ofMiB(1));
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum TorchDataFormat {
    /** A directory of files, one sample each, listed by a {@code manifest.json} (the paper's datasets). */
    FILES,
    /** Parquet shards of row groups (columns index and data, uncompressed), read a row group at a time by pyarrow. */
    PARQUET,
    /** A Hugging Face {@code datasets} dataset saved to disk (Arrow files), memory-mapped by {@code load_from_disk}. */
    ARROW,
    /** WebDataset-style tar shards, each streamed in order through a shuffle buffer ({@code shuffle_buffer}). */
    TAR_SHARDS,
    /** Megatron-style indexed binary pairs ({@code .bin} and {@code .idx}), memory-mapped, samples at random. */
    INDEXED,
    /** One file per sample in class directories, as torchvision's ImageFolder lays them out. */
    IMAGE_FOLDER,
    /** safetensors shards of one tensor per sample, read by name through mmap or, with {@code mmap=false}, pread. */
    SAFETENSORS;

    /** @return the name the bundled script and a dataset's manifest use ({@code tar_shards}) */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** @return the name the command line, a requirements file and a result's parameters use ({@code tar-shards}) */
    public String text() {
        return label().replace('_', '-');
    }
}

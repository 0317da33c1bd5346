package dev.prism.torch;

/**
 * The model a torch benchmark checkpoints: a synthetic stack of linear layers or a Hugging Face
 * architecture (needs transformers; never downloads anything), sized by parameter count and built whole on every
 * rank; or a <em>preset</em> of a frontier model (Llama 3 8B, 70B, 405B) at its real size, of which each rank
 * materialises only the shard its rank of the full training job holds ({@link ParallelLayout}).
 *
 * <pre>{@code
 * import dev.prism.torch.TorchModel;
 *
 * var m = TorchModel.LLAMA3_405B;
 * System.out.println(m.isPreset() + " " + m.parameterCount());
 * }</pre>
 */
public enum TorchModel {
    /** Linear layers of equal width. */
    SYNTHETIC,
    /** GPT-2 (transformers.GPT2Config), untied embeddings. */
    GPT2,
    /** Llama (transformers.LlamaConfig), untied embeddings. */
    LLAMA,
    /** BERT (transformers.BertConfig). */
    BERT,
    /** Llama 3 8B: hidden 4096, 32 layers, 32 heads, 8 KV heads, feed-forward 14336, vocabulary 128256. */
    LLAMA3_8B(4096, 32, 32, 8, 14336, 128256),
    /** Llama 3 70B: hidden 8192, 80 layers, 64 heads, 8 KV heads, feed-forward 28672, vocabulary 128256. */
    LLAMA3_70B(8192, 80, 64, 8, 28672, 128256),
    /** Llama 3 405B: hidden 16384, 126 layers, 128 heads, 8 KV heads, feed-forward 53248, vocabulary 128256. */
    LLAMA3_405B(16384, 126, 128, 8, 53248, 128256);

    final int hidden;
    final int layers;
    final int heads;
    final int kvHeads;
    final int ffn;
    final int vocab;

    TorchModel() {
        this(0, 0, 0, 0, 0, 0);
    }

    TorchModel(int hidden, int layers, int heads, int kvHeads, int ffn, int vocab) {
        this.hidden = hidden;
        this.layers = layers;
        this.heads = heads;
        this.kvHeads = kvHeads;
        this.ffn = ffn;
        this.vocab = vocab;
    }

    /** @return whether this is a frontier preset, checkpointed shard by shard, rather than a model built whole */
    public boolean isPreset() {
        return hidden > 0;
    }

    /** @return a preset's parameter count from its architecture (8,030,261,248 for Llama 3 8B); 0 for the others */
    public long parameterCount() {
        return isPreset() ? ParallelLayout.of(1, 1, 1).shard(this, 0, false).parameters() : 0;
    }

    /** @return the name as typed: {@code llama3-8b} */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}

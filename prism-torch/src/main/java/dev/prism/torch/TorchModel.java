package dev.prism.torch;

/**
 * The model a torch benchmark trains and checkpoints: a synthetic stack of linear layers sized by
 * parameter count, or a Hugging Face architecture built from its config class (needs transformers;
 * never downloads anything).
 *
 * <pre>{@code
 * var b = dev.prism.torch.TorchBenchmarks.fsdpSave().model(dev.prism.torch.TorchModel.LLAMA).parameters(50_000_000);
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
    BERT
}

/**
 * PyTorch checkpoint benchmarks launched with torchrun ({@code ddp_save}, {@code ddp_load},
 * {@code fsdp_save}, {@code fsdp_load}, {@code rl_load}). The module is part of the build so its
 * place in the dependency graph is fixed; the benchmarks arrive with their own issue.
 */
package dev.prism.torch;

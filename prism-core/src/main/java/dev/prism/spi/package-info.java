/**
 * What a plugin's benchmarks need from PRISM, public and kept stable: errno in messages ({@link dev.prism.spi.Errno}),
 * running a program with a timeout and an output tail ({@link dev.prism.spi.ChildProcess}), files a reader sees
 * whole or not at all ({@link dev.prism.spi.AtomicFiles}), directories never written through a link
 * ({@link dev.prism.spi.Directories}), PRISM's number formats ({@link dev.prism.spi.Formats}), a rank's result
 * document for a launcher of its own ({@link dev.prism.spi.RankDocuments}), and the small pieces of arithmetic its
 * results rest on ({@link dev.prism.spi.StudentT}, {@link dev.prism.spi.SplitMix}). Everything under
 * {@code dev.prism.internal} is PRISM's own and may change; {@code ModuleBoundaryTest} keeps other modules out.
 */
package dev.prism.spi;

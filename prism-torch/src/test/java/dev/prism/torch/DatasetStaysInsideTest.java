package dev.prism.torch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 55, item 4, on the torch side: the bundled Python that reads a dataset's manifest (prism_formats.py for the
 * training formats, prism_torch_bench.py's files dataloader) refuses an entry that is absolute, climbs with
 * {@code ..}, or reaches a file or directory outside through a link, naming the entry, and opens nothing outside.
 * The Python functions are run directly ({@code python -I}), without a torch run: dataset_files imports the bench
 * script, so it needs the project's .venv with torch, as the other torch tests do.
 */
class DatasetStaysInsideTest {
    private static final Path SCRIPTS = Path.of("src/main/resources/dev/prism/torch").toAbsolutePath();
    private static final byte[] SECRET = "root-only secret: 4be21d\n".getBytes(StandardCharsets.UTF_8);
    /** Each escaping entry is opened through Beneath and put in a manifest for read_manifest and dataset_files. */
    private static final String SNIPPET = """
            import hashlib, json, os, sys
            sys.path.insert(0, sys.argv[1])
            import prism_formats as pf
            root, entries = sys.argv[2], json.loads(sys.argv[3])
            out = {"open": {}, "read_manifest": {}, "dataset_files": {}}
            # before issue 55 the readers opened os.path.join(root, rel) with open_regular: kept so this test shows it
            b = pf.Beneath(root) if hasattr(pf, "Beneath") else None
            def attempt(call):
                try:
                    return "taken: " + str(call())
                except Exception as e:
                    return "refused: " + type(e).__name__ + ": " + str(e)
            def read(rel):
                fd = b.open(rel) if b else pf.open_regular(os.path.join(root, rel))
                try:
                    return hashlib.md5(os.read(fd, 1 << 20)).hexdigest()
                finally:
                    os.close(fd)
            import prism_torch_bench as bench
            for rel in entries + ["shard-000/file-0.bin"]:
                out["open"][rel] = attempt(lambda: read(rel))
                with open(os.path.join(root, pf.MANIFEST), "w") as f:
                    json.dump({"schema": pf.SCHEMA, "format": "tar_shards", "samples": 1, "files": [{"path": rel, "bytes": 1}],
                               "layout": [{"path": rel, "first": 0, "count": 1}]}, f)
                out["read_manifest"][rel] = attempt(lambda: [f["path"] for f in pf.read_manifest(root)["files"]])
                with open(os.path.join(root, "manifest.json"), "w") as f:
                    json.dump({"schema": "prism.dataset/1", "seed": 1, "files": [{"path": rel, "size": 1, "md5": "0" * 32}]}, f)
                out["dataset_files"][rel] = attempt(lambda: bench.dataset_files(root))
            with open(os.path.join(root, pf.MANIFEST), "w") as f:
                json.dump({"schema": pf.SCHEMA, "format": "tar_shards", "samples": 1, "files": [], "layout": [], "base": "/"}, f)
            out["unknown_key"] = attempt(lambda: pf.read_manifest(root))
            with open(os.path.join(root, "manifest.json"), "w") as f:
                json.dump({"schema": "prism.dataset/1", "seed": 1, "files": [{"path": "a", "size": 1, "root": "/"}]}, f)
            out["unknown_file_key"] = attempt(lambda: bench.dataset_files(root))
            if b:
                b.close()
            print(json.dumps(out))
            """;

    @TempDir
    Path base;

    @BeforeAll
    static void torch() {
        TorchPresent.require();
    }

    @Test
    void escapingEntries_areRefusedNamingThem_andNoByteOfTheOutsideFileIsRead() throws Exception {
        Path data = Files.createDirectory(base.resolve("dataset"));
        Files.createDirectory(data.resolve("shard-000"));
        Files.writeString(data.resolve("shard-000/file-0.bin"), "inside");
        Path secret = Files.write(base.resolve("secret"), SECRET);
        Files.createSymbolicLink(data.resolve("link-to-file"), secret);
        Files.createSymbolicLink(data.resolve("link-to-dir"), base);
        List<String> escaping = List.of(secret.toString(), "../secret", "shard-000/../../secret", "link-to-file",
                "link-to-dir/secret", "shard-000//file-0.bin", "./shard-000/file-0.bin");

        JsonNode out = python(data, escaping);

        String secretMd5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(SECRET));
        assertThat(out.toString()).doesNotContain(secretMd5).doesNotContain("4be21d");
        for (String entry : escaping) {
            String named = new ObjectMapper().writeValueAsString(entry);   // as the refusals quote it
            assertThat(out.path("open").path(entry).asText()).as(entry).startsWith("refused: DatasetError").contains(named);
            assertThat(out.path("dataset_files").path(entry).asText()).as(entry).startsWith("refused: ValidationError")
                    .contains(named.substring(1, named.length() - 1));
            if (!entry.startsWith("link-to")) {   // a link is a plain name: refused where it is opened, not in the manifest
                assertThat(out.path("read_manifest").path(entry).asText()).as(entry).startsWith("refused: DatasetError")
                        .contains(named);
            }
        }
        String inside = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest("inside".getBytes(StandardCharsets.UTF_8)));
        assertThat(out.path("open").path("shard-000/file-0.bin").asText()).isEqualTo("taken: " + inside);
        assertThat(out.path("read_manifest").path("shard-000/file-0.bin").asText()).isEqualTo("taken: ['shard-000/file-0.bin']");
        assertThat(out.path("dataset_files").path("shard-000/file-0.bin").asText()).isEqualTo("taken: [('shard-000/file-0.bin', 1)]");
        assertThat(out.path("unknown_key").asText()).startsWith("refused: DatasetError").contains("\"base\"");
        assertThat(out.path("unknown_file_key").asText()).startsWith("refused: ValidationError").contains("root");
    }

    private static JsonNode python(Path data, List<String> entries) throws IOException, InterruptedException {
        Path python = TorchRun.builder().build().python();
        Process p = new ProcessBuilder(python.toString(), "-I", "-c", SNIPPET, SCRIPTS.toString(), data.toString(),
                new ObjectMapper().writeValueAsString(entries)).redirectErrorStream(false).start();
        p.getOutputStream().close();
        dev.prism.spi.OutputTail errors = new dev.prism.spi.OutputTail(p.getErrorStream(), 8192, "python-stderr");
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        errors.await(10_000);
        assertThat(p.exitValue()).as(errors.text()).isZero();
        return new ObjectMapper().readTree(stdout);
    }
}

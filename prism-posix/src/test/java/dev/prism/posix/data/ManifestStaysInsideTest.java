package dev.prism.posix.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.DataSize;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.posix.Access;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmarks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 55, item 4: a dataset manifest's paths stay inside the dataset directory. An entry naming an absolute path,
 * one climbing out with {@code ..}, or a link inside the dataset that leads out (the file itself, or a directory on
 * the way) is refused naming the entry before any file is read, and no digest of the file outside reaches the result
 * document. Before the change md5_check read each of them and wrote the outside file's MD5 into its validation message.
 */
class ManifestStaysInsideTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DatasetSpec SMALL = new DatasetSpec(List.of(DataSize.ofKiB(8)), 4, DataSize.ofMiB(1),
            DatasetLayout.SHARDED, 2, 11);
    private static final byte[] SECRET = "root-only secret: 7f3a9c\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path base;
    @TempDir
    Path target;

    /** The dataset, with its manifest, beside a file outside it. */
    private Path data;
    private Path secret;

    private void dataset() throws IOException {
        data = Files.createDirectory(base.resolve("dataset"));
        Datasets.write(data, SMALL);
        secret = Files.write(base.resolve("secret"), SECRET);
    }

    private static String md5(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
    }

    /** Adds {@code path} to the dataset's manifest with the secret's size and a wrong MD5 (so a read of it fails). */
    private void listInManifest(String path) throws IOException {
        Path file = data.resolve(DatasetManifest.FILE_NAME);
        ObjectNode root = (ObjectNode) JSON.readTree(file.toFile());
        ((ArrayNode) root.get("files")).addObject().put("path", path).put("size", SECRET.length)
                .put("md5", "0".repeat(32));
        Files.writeString(file, JSON.writeValueAsString(root));
    }

    static Stream<Arguments> escapes() {
        return Stream.of(Access.NATIVE, Access.NIO).flatMap(access -> Stream.of("absolute", "dot-dot", "a/../..",
                "link to the file", "link to a directory").map(kind -> Arguments.of(kind, access)));
    }

    /** The entry naming the secret in the way {@code kind} says; makes the links it needs. */
    private String escapingEntry(String kind) throws IOException {
        return switch (kind) {
            case "absolute" -> secret.toString();
            case "dot-dot" -> "../secret";
            case "a/../.." -> "shard-000/../../secret";
            case "link to the file" -> {
                Files.createSymbolicLink(data.resolve("shard-001/file-999999.bin"), secret);
                yield "shard-001/file-999999.bin";
            }
            case "link to a directory" -> {
                Files.createSymbolicLink(data.resolve("shard-002"), base);
                yield "shard-002/secret";
            }
            default -> throw new IllegalArgumentException(kind);
        };
    }

    @ParameterizedTest(name = "{0}, access={1}")
    @MethodSource("escapes")
    void md5Check_refusesAnEntryThatLeadsOutside_namingIt_andNoDigestOfTheOutsideFileIsInTheResult(String kind, Access access)
            throws Exception {
        dataset();
        String entry = escapingEntry(kind);
        listInManifest(entry);

        RunResult r = Scenario.builder().target(target).benchmark(PosixBenchmarks.md5Check().dataset(data)
                .access(access).cache(PageCache.DROP)).tasks(1).build().execute().runs().get(0);

        assertThat(r.passed()).isFalse();
        String document = r.toJson();
        assertThat(document).doesNotContain(md5(SECRET)).doesNotContain("7f3a9c");
        assertThat(r.failure().message()).contains(entry);
        // refused before any file was read: not one file counted as read
        assertThat(r.counters().getOrDefault("files_read", 0L)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("escapes")
    void verify_refusesAnEntryThatLeadsOutside_namingIt(String kind, Access access) throws Exception {
        if (access != Access.NATIVE) {
            return;   // verify has one way to read
        }
        dataset();
        String entry = escapingEntry(kind);
        listInManifest(entry);
        assertThatThrownBy(() -> Datasets.verify(data)).isInstanceOf(IOException.class).hasMessageContaining(entry)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(md5(SECRET)));
    }

    @Test
    void unknownKeysInAManifest_areRefusedNamingTheKey() throws Exception {
        dataset();
        Path file = data.resolve(DatasetManifest.FILE_NAME);
        String good = Files.readString(file);

        ObjectNode top = (ObjectNode) JSON.readTree(good);
        top.put("root", "/etc");
        Files.writeString(file, JSON.writeValueAsString(top));
        assertThatThrownBy(() -> DatasetManifest.read(file)).isInstanceOf(IOException.class).hasMessageContaining("\"root\"");

        ObjectNode entry = (ObjectNode) JSON.readTree(good);
        ((ObjectNode) entry.get("files").get(0)).put("base", "/etc");
        Files.writeString(file, JSON.writeValueAsString(entry));
        assertThatThrownBy(() -> DatasetManifest.read(file)).isInstanceOf(IOException.class).hasMessageContaining("\"base\"")
                .hasMessageContaining(SMALL.files().stream().map(DatasetSpec.File::path).sorted().findFirst().orElseThrow());

        Files.writeString(file, good);
        assertThat(DatasetManifest.read(file).entries()).hasSize(SMALL.files().size());
    }

    @Test
    void aManifestOfPlainRelativeNames_stillReadsAndVerifies_andMd5CheckPasses() throws Exception {
        dataset();
        assertThat(Datasets.verify(data).passed()).isTrue();
        for (Access access : List.of(Access.NATIVE, Access.NIO)) {
            RunResult r = Scenario.builder().target(target).benchmark(PosixBenchmarks.md5Check().dataset(data)
                    .access(access).cache(PageCache.DROP).epochs(2)).tasks(2).build().execute().runs().get(0);
            assertThat(r.passed()).as(access + ": " + r.failure()).isTrue();
            assertThat(r.counters().get("files_read")).isEqualTo(2L * SMALL.files().size());
        }
    }
}

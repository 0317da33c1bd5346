package dev.prism.posix.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Any manifest path that is absolute, climbs with {@code ..}, has an empty or {@code .} component or holds a NUL is
 * refused when the manifest is read, naming the entry (its control characters escaped), whatever plain names surround
 * the bad part; the same names with the bad part left out are taken. Before issue 55 every one of them was read.
 */
class ManifestEscapeProperties {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A path of 1–4 plain components with one bad part put in: a leading '/', a '..', '.', an empty component or a NUL. */
    @Provide
    Arbitrary<List<String>> escaping() {
        Arbitrary<String> plain = Arbitraries.strings().withCharRange('a', 'z').withChars('-', '_', '.', ' ').ofMinLength(1)
                .ofMaxLength(8).filter(s -> !s.equals(".") && !s.equals(".."));
        Arbitrary<String> bad = Arbitraries.of("/", "..", ".", "", "\0", "x\0y");
        return Combinators.combine(plain.list().ofMinSize(1).ofMaxSize(4), bad, Arbitraries.integers().between(0, 4))
                .as((parts, badPart, at) -> {
                    List<String> components = new ArrayList<>(parts);
                    int where = Math.min(at, components.size());
                    String good = String.join("/", components);
                    String escaping;
                    if (badPart.equals("/")) {
                        escaping = "/" + good;
                    } else if (badPart.contains("\0")) {
                        components.set(Math.min(where, components.size() - 1), components.get(Math.min(where, components.size() - 1)) + badPart);
                        escaping = String.join("/", components);
                    } else {
                        components.add(where, badPart);
                        escaping = String.join("/", components);
                    }
                    return List.of(escaping, good);
                });
    }

    @Property(tries = 500)
    void anEscapingPath_isRefusedNamingTheEntry_andThePlainOneIsTaken(@ForAll("escaping") List<String> names) throws Exception {
        String escaping = names.get(0);
        String good = names.get(1);
        Path dir = Files.createTempDirectory("manifest-escape");
        try {
            Path file = dir.resolve(DatasetManifest.FILE_NAME);
            Files.writeString(file, manifest(escaping));
            String shown = escaping.replace("\0", "\\u0000");
            assertThatThrownBy(() -> DatasetManifest.read(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining(shown).hasMessageNotContaining("\0");
            assertThatThrownBy(() -> new DatasetManifest.Entry(escaping, 1, null)).isInstanceOf(IllegalArgumentException.class);

            Files.writeString(file, manifest(good));
            assertThat(DatasetManifest.read(file).entries()).extracting(DatasetManifest.Entry::path).containsExactly(good);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static String manifest(String path) throws IOException {
        ObjectNode root = JSON.createObjectNode().put("schema", DatasetManifest.SCHEMA).put("seed", 1);
        root.putArray("files").addObject().put("path", path).put("size", 1).put("md5", "0".repeat(32));
        return JSON.writeValueAsString(root);
    }
}

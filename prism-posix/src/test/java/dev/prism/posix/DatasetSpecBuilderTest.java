package dev.prism.posix;

import dev.prism.DataSize;
import dev.prism.posix.data.DatasetLayout;
import dev.prism.posix.data.DatasetSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetSpecBuilderTest {
    @Test
    void theBuilder_startsFromCreateDatasetsDefaults_andNamesWhatItRefuses() {
        DatasetSpec defaults = DatasetSpec.builder().build();
        assertThat(defaults).isEqualTo(new DatasetSpec(List.of(DataSize.ofKiB(8), DataSize.ofKiB(64), DataSize.ofMiB(1),
                DataSize.ofMiB(16), DataSize.ofMiB(128), DataSize.ofGiB(1)), 4, DataSize.ofGiB(2), DatasetLayout.SHARDED, 16, 42));
        DatasetSpec small = DatasetSpec.builder().sizeClasses(DataSize.ofKiB(32)).filesPerClass(100)
                .totalSize(DataSize.ofMiB(32)).layout(DatasetLayout.FLAT).seed(7).build();
        assertThat(small.fileCount()).isEqualTo(100);
        assertThat(small.files()).allSatisfy(f -> assertThat(f.path()).doesNotContain("/"));
        assertThatThrownBy(() -> DatasetSpec.builder().shards(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shards").hasMessageContaining("0");
        assertThatThrownBy(() -> DatasetSpec.builder().filesPerClass(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("files_per_class");
        assertThatThrownBy(() -> DatasetSpec.builder().sizeClasses()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sizeClasses must name at least one file size");
        assertThatThrownBy(() -> DatasetSpec.builder().sizeClasses(DataSize.ofMiB(1)).totalSize(DataSize.ofKiB(4)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("smaller than one file of the smallest");
        // the six-argument form is checked the same way (a sharded layout of 0 shards divided by zero before)
        assertThatThrownBy(() -> new DatasetSpec(List.of(DataSize.ofKiB(8)), 1, DataSize.ofMiB(1), DatasetLayout.SHARDED, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shards");
    }
}

package dev.prism.internal.files;

import dev.prism.TargetInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MountTableTest {
    private static final List<String> LINES = List.of(
            "22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard",
            "30 22 0:26 / /mnt/nfs rw,nosuid shared:12 - nfs4 filer:/export/home rw,vers=4.2,rsize=1048576",
            "31 30 0:27 / /mnt/nfs/scratch\\040space rw master:3 - lustre 10.0.0.1@tcp:/scratch rw,flock",
            "40 22 0:30 / /mnt/over rw - tmpfs first rw",
            "41 22 0:31 / /mnt/over rw - fuse.sshfs user@localhost:/data rw,user_id=0",
            "garbage line without the separator");

    @Test
    void find_picksTheLongestMountPointAndUnescapesSpaces() {
        MountTable table = MountTable.parse(LINES);
        assertThat(table.find("/mnt/nfs/scratch space/run").orElseThrow().filesystemType()).isEqualTo("lustre");
        assertThat(table.find("/mnt/nfs/home/u").orElseThrow().source()).isEqualTo("filer:/export/home");
        assertThat(table.find("/mnt/nfs").orElseThrow().superOptions()).contains("vers=4.2");
        assertThat(table.find("/mnt/nfsx").orElseThrow().mountPoint()).isEqualTo("/");
        assertThat(table.find("/home").orElseThrow().mountOptions()).isEqualTo("rw,relatime");
    }

    @Test
    void find_prefersTheLaterMountWhereOneHidesAnother() {
        assertThat(MountTable.parse(LINES).find("/mnt/over/x").orElseThrow().filesystemType()).isEqualTo("fuse.sshfs");
    }

    @Test
    void describe_readsThisMachinesRealMountTable(@TempDir Path dir) throws java.io.IOException {
        TargetInfo info = MountTable.describe(dir);
        assertThat(info.filesystemType()).isNotBlank();
        assertThat(dir.toRealPath(java.nio.file.LinkOption.NOFOLLOW_LINKS).toString()).startsWith(info.mountPoint());
        assertThat(info.totalBytes()).isPositive();
    }
}

package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmConfigSharedTest {
  @TempDir Path dir;

  @Test
  void anUnchangedFileIsParsedOnceAndAChangedOneAgain() throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=one\n");
    SlurmConfig first = SlurmConfig.loadShared(conf);
    assertThat(SlurmConfig.loadShared(conf)).isSameAs(first);

    Files.writeString(conf, "ClusterName=two\n");
    Files.setLastModifiedTime(conf, FileTime.fromMillis(Files.getLastModifiedTime(conf).toMillis() + 1000));
    assertThat(SlurmConfig.loadShared(conf).clusterName()).isEqualTo("two");
  }

  @Test
  void aChangedIncludedFileIsReadAgain() throws Exception {
    // the command server keeps the cache across commands: an edit of an included file counts
    Path conf = dir.resolve("slurm.conf");
    Path part = dir.resolve("cluster.conf");
    Files.writeString(conf, "Include cluster.conf\n");
    Files.writeString(part, "ClusterName=one\n");
    SlurmConfig first = SlurmConfig.loadShared(conf);
    assertThat(SlurmConfig.loadShared(conf)).isSameAs(first);

    Files.writeString(part, "ClusterName=three\n");
    Files.setLastModifiedTime(part, FileTime.fromMillis(Files.getLastModifiedTime(part).toMillis() + 1000));
    assertThat(SlurmConfig.loadShared(conf).clusterName()).isEqualTo("three");
  }
}

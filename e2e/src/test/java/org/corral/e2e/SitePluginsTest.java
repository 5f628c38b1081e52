package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A site's extensions on a real two-node cluster: a job_submit.lua (JobSubmitPlugins=lua) that
 * sends jobs without a partition to "batch" and refuses jobs without a time limit; Slurm's
 * --container with an oci.conf calling runc; and Pyxis's --container-image options
 * (plugstack.conf naming spank_pyxis.so), with a root file system made at test time from
 * busybox-static into an OCI bundle, a squashfs file and a docker-archive tarball.
 */
class SitePluginsTest {
  private static final String LUA = """
      function slurm_job_submit(job_desc, part_list, submit_uid)
        if job_desc.partition == nil then
          job_desc.partition = "batch"
        end
        if job_desc.time_limit == slurm.NO_VAL then
          slurm.log_user("a time limit is required (--time)")
          return slurm.ESLURM_INVALID_TIME_LIMIT
        end
        return slurm.SUCCESS
      end
      function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
        return slurm.SUCCESS
      end
      """;
  private static final String RUNC = "runc --rootless=true --root=/tmp/corral-e2e-runc-%U";
  private static final String OCI_CONF = """
      RunTimeQuery="%1$s state %%n.%%u.%%j.%%s.%%t"
      RunTimeKill="%1$s kill -a %%n.%%u.%%j.%%s.%%t"
      RunTimeDelete="%1$s delete --force %%n.%%u.%%j.%%s.%%t"
      RunTimeRun="%1$s run %%n.%%u.%%j.%%s.%%t -b %%b"
      RunTimeEnvExclude="^SECRET_.*"
      """.formatted(RUNC);

  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path work;
  private static Path bundle;
  private static Path squashfs;
  private static Path dockerArchive;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    for (String tool : List.of("/usr/sbin/runc", "/usr/bin/mksquashfs", "/usr/bin/unsquashfs", "/bin/busybox")) {
      assumeTrue(Files.isExecutable(Path.of(tool)), tool + " is missing (.ci/run installs runc, squashfs-tools and "
          + "busybox-static)");
    }
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.upWithFiles(2, """
        ClusterName=sites
        SlurmdTimeout=30
        KillWait=2
        DefMemPerCPU=100
        JobSubmitPlugins=lua
        NodeName=p[1-2] CPUs=2 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        PartitionName=batch Nodes=ALL MaxTime=INFINITE State=UP
        """, Map.of("job_submit.lua", LUA, "oci.conf", OCI_CONF,
        "plugstack.conf", "required /usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so\n",
        "cgroup.conf", "CgroupPlugin=autodetect\nConstrainRAMSpace=yes\n"));
    work = cluster.workDir(alice);
    images();
  }

  /** A busybox root file system as alice's OCI bundle, squashfs image and docker-archive tarball. */
  private static void images() throws Exception {
    Path images = work.resolve("images");
    sh("""
        set -e
        mkdir -p rootfs/bin rootfs/etc rootfs/data bundle
        cp /bin/busybox rootfs/bin/busybox
        for applet in $(/bin/busybox --list); do [ "$applet" = busybox ] || ln -s busybox "rootfs/bin/$applet"; done
        echo inside-the-image > rootfs/etc/marker
        mksquashfs rootfs busybox.sqsh -quiet -no-progress -all-root >/dev/null
        mkdir -p layer && tar -C rootfs -cf layer/layer.tar .
        echo '[{"Config":"config.json","RepoTags":["busybox:test"],"Layers":["layer/layer.tar"]}]' > manifest.json
        echo '{}' > config.json
        tar -cf busybox.tar manifest.json config.json layer/layer.tar
        cp -a rootfs bundle/rootfs
        cd bundle && runc spec --rootless && sed -i 's/"terminal": true/"terminal": false/' config.json
        """, images);
    bundle = images.resolve("bundle");
    squashfs = images.resolve("busybox.sqsh");
    dockerArchive = images.resolve("busybox.tar");
    Files.writeString(work.resolve("hello.txt"), "hello from the host\n");
  }

  /** Runs a shell script as alice in DIR (made first). */
  private static void sh(String script, Path dir) throws Exception {
    Files.createDirectories(dir);
    new ProcessBuilder("chown", "-R", alice.uid() + ":" + alice.gid(), dir.toString()).start().waitFor();
    Process p = new ProcessBuilder("setpriv", "--reuid=" + alice.uid(), "--regid=" + alice.gid(), "--init-groups",
        "sh", "-c", script).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static LocalCluster.Result alice(String... args) throws Exception {
    return cluster.as(alice, work, args);
  }

  @Test
  void luaSendsJobsWithoutAPartitionToBatchAndRefusesThoseWithoutATimeLimit() throws Exception {
    LocalCluster.Result refused = alice("sbatch", "--wrap=true");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("sbatch: error: a time limit is required (--time)\n"
        + "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some "
        + "limit)\n");
    int id = LocalCluster.jobId(alice("sbatch", "-t", "1", "--wrap=true"));
    assertThat(cluster.as(alice, "squeue", "-h", "-t", "all", "-j", String.valueOf(id), "-o", "%P").out())
        .isEqualTo("batch\n");
    int named = LocalCluster.jobId(alice("sbatch", "-t", "1", "-p", "debug", "--wrap=true"));
    assertThat(cluster.as(alice, "squeue", "-h", "-t", "all", "-j", String.valueOf(named), "-o", "%P").out())
        .isEqualTo("debug\n");
    LocalCluster.Result srun = alice("srun", "true");
    assertThat(srun.exitCode()).isEqualTo(1);
    assertThat(srun.err()).contains("srun: error: a time limit is required (--time)");
  }

  @Test
  void ociContainerRunsEachTaskAsTheUserInTheBundleWithItsExitCode() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, Map.of("SECRET_TOKEN", "x", "VISIBLE", "yes"),
        "srun", "-t", "1", "-N2", "-l", "--container=" + bundle,
        "sh", "-c", "cat /etc/marker; echo ${SECRET_TOKEN:-excluded} $VISIBLE; cat /proc/self/uid_map | tr -s ' '");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out().lines().toList()).containsExactlyInAnyOrder(
        "0: excluded yes", "0: inside-the-image", "0:  0 " + alice.uid() + " 1",
        "1: excluded yes", "1: inside-the-image", "1:  0 " + alice.uid() + " 1");
    LocalCluster.Result failing = alice("srun", "-t", "1", "--container=" + bundle, "sh", "-c", "exit 3");
    assertThat(failing.exitCode()).isEqualTo(3);
    assertThat(failing.err()).contains("task 0: Exited with exit code 3");
  }

  @Test
  void aBatchScriptRunsInTheContainerToo() throws Exception {
    int id = LocalCluster.jobId(alice("sbatch", "-t", "1", "--container=" + bundle, "-o", "oci-%j.out",
        "--wrap", "cat /etc/marker"));
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    assertThat(Files.readString(work.resolve("oci-" + id + ".out"))).isEqualTo("inside-the-image\n");
  }

  @Test
  void containerImageWithMountsWorkdirAndEnvironmentRunsAsTheUserOnBothNodes() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, Map.of("FOO", "bar"), "srun", "-t", "1", "-N2",
        "--container-image=" + squashfs, "--container-mounts=" + work + ":/data:ro", "--container-workdir=/data",
        "--container-env=FOO", "sh", "-c", "echo $(id -u) $(pwd) $FOO $(cat hello.txt) $(cat /etc/marker)");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    // runc maps the container's root to the user (docs/adr/0007): uid 0 inside, alice's on the host
    String line = "0 /data bar hello from the host inside-the-image";
    assertThat(r.out().lines().toList()).containsExactly(line, line);
    LocalCluster.Result readonly = alice("srun", "-t", "1", "--container-image=" + squashfs,
        "--container-mounts=" + work + ":/data:ro", "sh", "-c", "touch /data/x || touch /etc/y || echo both-readonly");
    assertThat(readonly.out()).isEqualTo("both-readonly\n");
  }

  @Test
  void dockerArchiveWithRemapRootAndANamedContainerKeptAcrossSteps() throws Exception {
    LocalCluster.Result root = alice("srun", "-t", "1", "--container-image=docker-archive:" + dockerArchive,
        "--container-remap-root", "id", "-u");
    assertThat(root.out()).as(root.toString()).isEqualTo("0\n");
    int id = LocalCluster.jobId(alice("sbatch", "-t", "1", "-o", "named-%j.out", "--wrap",
        "srun --container-image=" + squashfs + " --container-name=keep sh -c 'echo kept > /etc/state'; "
        + "srun --container-name=keep cat /etc/state; "
        + "srun --container-image=" + squashfs + " sh -c 'cat /etc/state 2>/dev/null || echo fresh'"));
    assertThat(cluster.awaitState(id, "COMPLETED", 60)).isEqualTo("COMPLETED");
    assertThat(Files.readString(work.resolve("named-" + id + ".out"))).isEqualTo("kept\nfresh\n");
  }

  @Test
  void badContainerInputFailsTheJobWithAClearMessageAndTheNodesStayUp() throws Exception {
    LocalCluster.Result mounts = alice("srun", "-t", "1", "--container-image=" + squashfs,
        "--container-mounts=:/x", "true");
    assertThat(mounts.exitCode()).isEqualTo(255);
    assertThat(mounts.err()).isEqualTo("srun: error: pyxis: --container-mounts: invalid format: :/x\n");

    LocalCluster.Result missing = alice("srun", "-t", "1", "--container-image=" + work.resolve("nosuch.sqsh"),
        "true");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("slurmstepd: error: pyxis: failed to create container filesystem",
        "[ERROR] No such file or directory: " + work.resolve("nosuch.sqsh"));

    LocalCluster.Result notBundle = alice("srun", "-t", "1", "--container=" + work, "true");
    assertThat(notBundle.exitCode()).isEqualTo(1);
    assertThat(notBundle.err()).contains("slurmstepd: error: container: " + work + " is not an OCI bundle");

    assertThat(cluster.as(null, "sinfo", "-h", "-o", "%t", "-p", "debug").out()).doesNotContain("drain", "down");
  }

  @Test
  void aContainerOverItsMemoryIsKilled() throws Exception {
    int hog = LocalCluster.jobId(alice("sbatch", "-t", "1", "--mem=30M", "-o", "hog-%j.out",
        "--container-image=" + squashfs, "--wrap", "dd if=/dev/zero of=/dev/null bs=200M count=1; echo after"));
    assertThat(cluster.awaitState(hog, "OUT_OF_MEMORY", 60)).isEqualTo("OUT_OF_MEMORY");
  }
}

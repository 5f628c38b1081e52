package org.corral.common.config;

import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * slurm.conf lines, real keys with hostile values and plain garbage: reading them ends in a
 * configuration or a {@link ConfigException} naming the problem, never in another exception.
 * CI runs a fixed number of inputs; bench/fuzz.sh runs more.
 */
class SlurmConfFuzzTest {
  private static final List<String> KEYS = List.of("ClusterName", "SlurmctldHost", "SlurmctldPort",
      "SlurmdPort", "NodeName", "PartitionName", "StateSaveLocation", "SlurmdTimeout", "MaxJobId",
      "FirstJobId", "SchedulerParameters", "SlurmctldParameters", "SelectType",
      "SelectTypeParameters", "PriorityWeightAge", "DefMemPerCPU", "MaxMemPerCPU", "Licenses",
      "AccountingStorageEnforce", "PreemptMode", "PreemptType", "GresTypes", "Include", "KillWait",
      "MinJobAge", "ReturnToService", "TaskPlugin", "ProctrackType", "PrivateData");
  private static final List<String> NODE_OR_PARTITION_KEYS = List.of("CPUs", "RealMemory",
      "Sockets", "CoresPerSocket", "ThreadsPerCore", "Gres", "Feature", "Weight", "State", "Nodes",
      "Default", "MaxTime", "DefaultTime", "PriorityTier", "OverSubscribe", "AllowAccounts");

  @Property(tries = 300)
  void anyLinesEndInAConfigurationOrAConfigError(@ForAll("confs") String text) {
    try {
      SlurmConfig cfg = SlurmConfig.parse(text, Path.of("/fuzz/slurm.conf"));
      cfg.nodes();
      cfg.partitions();
      cfg.scheduling();
      cfg.accounting();
      cfg.slurmdTimeout();
      cfg.maxJobId();
      cfg.licenses();
    } catch (ConfigException expected) {
      // a clear refusal: what we want for bad input
    }
  }

  @Provide
  Arbitrary<String> confs() {
    Arbitrary<String> value = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.strings().withChars("0123456789-,[]:=KMGT xyz\"'#\\").ofMaxLength(20),
        Arbitraries.integers().map(String::valueOf),
        Arbitraries.longs().map(String::valueOf));
    Arbitrary<String> pair = Combinators.combine(Arbitraries.of(NODE_OR_PARTITION_KEYS), value)
        .as((k, v) -> k + "=" + v);
    Arbitrary<String> line = Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of(KEYS), value).as((k, v) -> k + "=" + v),
        Combinators.combine(Arbitraries.of("NodeName", "PartitionName"), value,
            pair.list().ofMaxSize(4)).as((k, v, rest) -> k + "=" + v + " " + String.join(" ", rest)),
        Arbitraries.strings().ofMaxLength(60));
    return line.list().ofMaxSize(12).map(lines -> "ClusterName=fuzz\nSlurmctldHost=localhost\n"
        + "NodeName=n1 CPUs=2\nPartitionName=p Nodes=n1 Default=YES\n" + String.join("\n", lines));
  }
}

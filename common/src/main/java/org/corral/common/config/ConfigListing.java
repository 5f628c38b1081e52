package org.corral.common.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.Version;

/**
 * The lines of {@code scontrol show config} before its sections, as Slurm 22.05 prints them: every
 * key of {@link SlurmConfKeys} in its order with Slurm's default and units, and the lines only
 * the controller knows (BOOT_TIME, NEXT_JOB_ID, SlurmUser's uid...) from {@code derived}.
 */
public final class ConfigListing {
  /** AccountingStorageTRES always starts with these; slurm.conf's are added after them. */
  static final String BASE_TRES = "cpu,mem,energy,node,billing,fs/disk,vmem,pages";

  /** Keys Slurm leaves out under priority/basic. */
  private static final Set<String> MULTIFACTOR_ONLY = Set.of("FairShareDampeningFactor", "PriorityDecayHalfLife",
      "PriorityCalcPeriod", "PriorityFavorSmall", "PriorityFlags", "PriorityMaxAge", "PriorityUsageResetPeriod",
      "PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairshare", "PriorityWeightJobSize",
      "PriorityWeightPartition", "PriorityWeightQOS", "PriorityWeightTRES");

  /** What Corral authenticates with (Slurm 23.11's auth/slurm is the same idea: a shared key file). */
  static final String AUTH_IN_USE = "auth/slurm";

  private ConfigListing() {}

  /**
   * @param derived values of the controller's own: BOOT_TIME (epoch seconds), NEXT_JOB_ID,
   *     SlurmUser and SlurmdUser (as {@code name(uid)})
   */
  public static List<Map.Entry<String, String>> of(SlurmConfig cfg, Map<String, String> derived) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    boolean multifactor = cfg.scheduling().multifactor();
    for (ConfKey<?> k : SlurmConfKeys.all()) {
      if (!k.printed() || (!multifactor && MULTIFACTOR_ONLY.contains(k.name()))
          || (k.name().equals("SelectTypeParameters") && !cfg.isSet(k))) {
        continue;
      }
      switch (k.name()) {
        case "SlurmctldHost" -> {
          List<String> hosts = cfg.slurmctldHosts().isEmpty() ? List.of(cfg.controllerHost()) : cfg.slurmctldHosts();
          for (int i = 0; i < hosts.size(); i++) {
            out.add(Map.entry("SlurmctldHost[" + i + "]", hosts.get(i)));
          }
        }
        case "DefMemPerCPU" -> out.add(memory(cfg, SlurmConfKeys.DEF_MEM_PER_CPU, SlurmConfKeys.DEF_MEM_PER_NODE));
        case "MaxMemPerCPU" -> out.add(memory(cfg, SlurmConfKeys.MAX_MEM_PER_CPU, SlurmConfKeys.MAX_MEM_PER_NODE));
        case "PriorityWeightFairshare" -> out.add(Map.entry("PriorityWeightFairShare", cfg.shown(k)));
        case "UsePAM" -> out.add(Map.entry("UsePam", cfg.shown(k)));
        default -> out.add(Map.entry(k.name(), value(cfg, k, derived)));
      }
    }
    return out;
  }

  private static String value(SlurmConfig cfg, ConfKey<?> k, Map<String, String> derived) {
    if (derived.containsKey(k.name())) {
      return derived.get(k.name());
    }
    AccountingConfig acct = cfg.accounting();
    return switch (k.name()) {
      case "AccountingStorageHost" -> acct.enabled() ? acct.host() : cfg.isSet(k) ? cfg.shown(k) : "localhost";
      case "AccountingStoragePort" -> acct.enabled() ? Integer.toString(acct.port()) : cfg.isSet(k) ? cfg.shown(k) : "0";
      case "AccountingStorageTRES" -> tres(cfg);
      case "AccountingStorageUser" -> cfg.isSet(k) ? cfg.shown(k) : cfg.slurmUser();
      case "AuthType" -> AUTH_IN_USE;
      case "HASH_VAL" -> "Match";
      case "MULTIPLE_SLURMD" -> "Yes";
      case "MaxNodeCount" -> cfg.isSet(k) ? cfg.shown(k) : Integer.toString(cfg.nodes().size());
      case "PreemptMode" -> preemptMode(cfg.value(SlurmConfKeys.PREEMPT_MODE));
      case "PropagateResourceLimits" -> !cfg.isSet(k) && cfg.get("PropagateResourceLimitsExcept").isPresent()
          ? "(null)" : cfg.shown(k);
      case "SLURM_CONF" -> cfg.path().toString();
      case "SLURM_VERSION" -> Version.NUMBER;
      default -> cfg.shown(k);
    };
  }

  /** DefMemPerCPU when set, else DefMemPerNode (UNLIMITED when neither is): Slurm prints one of the two. */
  private static Map.Entry<String, String> memory(SlurmConfig cfg, ConfKey<Long> perCpu, ConfKey<Long> perNode) {
    if (cfg.isSet(perCpu)) {
      return Map.entry(perCpu.name(), cfg.shown(perCpu));
    }
    return Map.entry(perNode.name(), cfg.isSet(perNode) ? cfg.shown(perNode) : "UNLIMITED");
  }

  private static String tres(SlurmConfig cfg) {
    Set<String> tres = new LinkedHashSet<>(List.of(BASE_TRES.split(",")));
    cfg.get("AccountingStorageTRES").ifPresent(v -> {
      for (String t : v.split(",")) {
        if (!t.isBlank()) {
          tres.add(t.trim());
        }
      }
    });
    return String.join(",", tres);
  }

  /** GANG first, then the action, as Slurm prints the mode ({@code GANG,SUSPEND}). */
  private static String preemptMode(String mode) {
    List<String> words = new ArrayList<>();
    for (String w : mode.toUpperCase(java.util.Locale.ROOT).split(",")) {
      if (!w.isBlank()) {
        words.add(w.trim());
      }
    }
    if (words.remove("GANG")) {
      words.add(0, "GANG");
    }
    return String.join(",", words);
  }
}

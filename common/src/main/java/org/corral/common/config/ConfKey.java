package org.corral.common.config;

/**
 * One slurm.conf key of {@link SlurmConfKeys}: its name as slurm.conf(5) spells it, its type,
 * its default, how {@code scontrol show config} prints it when unset, and what Corral does with it.
 *
 * @param <T> what its value reads as
 * @param index its own slot in a loaded file (keys are numbered as the table builds them)
 * @param dflt the default as slurm.conf would write it, or null: unset means "none"
 * @param unsetOverride how scontrol show config prints the key when slurm.conf leaves it out, when
 *     that is not its default printed as a value ({@link #unsetText}); null otherwise
 * @param printed whether scontrol show config prints it (not a legacy key, nor one shown under
 *     another name)
 * @param support what Corral does with it
 * @param note for a key not (fully) honoured: what Corral does instead, for docs/compatibility.md
 * @param corralValue for a key not implemented, the value (as printed) that says what Corral does
 *     anyway (SelectType=select/cons_tres), which is therefore not warned about; or null
 */
public record ConfKey<T>(int index, String name, ConfType<T> type, String dflt, String unsetOverride,
    boolean printed, Support support, String note, String corralValue) {

  /** What Corral does with a key. */
  public enum Support {
    /** Read and acted on as Slurm does. */
    HONOURED,
    /** Read and checked, but without effect: listed in one warning line when a daemon starts. */
    NOT_IMPLEMENTED,
    /** Derived by the controller, not a slurm.conf key (BOOT_TIME, SLURM_VERSION...): shown only. */
    SHOWN_ONLY
  }

  /** The typed default (null when there is none). */
  public T defaultValue() {
    return dflt == null ? null : type.parse(name, dflt);
  }

  /**
   * How scontrol show config prints the key when slurm.conf leaves it out. Worked out when asked,
   * not when the table is built: every command loads the table, few print it.
   */
  public String unsetText() {
    return unsetOverride != null ? unsetOverride : dflt == null ? "(null)" : type.reprint(name, dflt);
  }

  /** The same key, printed as {@code text} when unset. */
  ConfKey<T> withUnset(String text) {
    return new ConfKey<>(index, name, type, dflt, text, printed, support, note, corralValue);
  }

  /** The same key, not printed by scontrol show config. */
  ConfKey<T> unprinted() {
    return new ConfKey<>(index, name, type, dflt, unsetOverride, false, support, note, corralValue);
  }

  /** The same key, whose {@code value} is what Corral does anyway. */
  ConfKey<T> as(String value) {
    return new ConfKey<>(index, name, type, dflt, unsetOverride, printed, support, note, value);
  }
}
